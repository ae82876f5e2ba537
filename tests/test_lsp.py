"""`nextedit lsp` end to end over stdio, driven by pytest-lsp with real editors' capabilities.

The scenario: open a Python file, rename one occurrence of a local variable
with an incremental change, then ask for the next edit the ways LSP editors
do (``textDocument/copilotInlineEdit``, code actions, inline completion),
accept it with the command the server handed out and find the record in
``feedback.jsonl``. Every test awaits answers; none sleeps.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Union

import pytest
import pytest_asyncio
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities, make_test_lsp_client

from tests.helpers.lsp_texts import GEOM, MAIN, TESTS

COPILOT_INLINE_EDIT = "textDocument/copilotInlineEdit"
DID_SHOW_INLINE_EDIT = "textDocument/didShowInlineEdit"

SOURCE = """\
def area(width, height):
    result = width * height
    return result


print(area(2, 3))
"""
RENAMED = SOURCE.replace("result", "total")
URI = "file:///project/area.py"

# a line with emoji (astral: 2 UTF-16 units, 4 UTF-8 bytes) and CJK before the identifier
EMOJI_SOURCE = """\
def tally(items):
    tag = "🐍🎉漢"; count = 0
    for item in items:
        count += 1
    return count
"""
EMOJI_RENAMED = EMOJI_SOURCE.replace("count", "total")
EMOJI_URI = "file:///project/tally.py"


# -- positions, computed independently of nextedit.text --------------------------


def column(line_text: str, cp_col: int, encoding: str) -> int:
    """The column of code point ``cp_col`` of ``line_text`` in ``encoding``."""
    prefix = line_text[:cp_col]
    if encoding == "utf-8":
        return len(prefix.encode("utf-8"))
    if encoding == "utf-16":
        return len(prefix.encode("utf-16-le")) // 2
    return len(prefix)


def cp_column(line_text: str, col: int, encoding: str) -> int:
    """The code point of encoded column ``col`` of ``line_text`` (exact: no snapping needed)."""
    for cp in range(len(line_text) + 1):
        if column(line_text, cp, encoding) == col:
            return cp
    raise AssertionError(f"column {col} ({encoding}) is not a character boundary in {line_text!r}")


def position_of(text: str, needle: str, encoding: str, occurrence: int = 0) -> types.Position:
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(needle, start + 1)
    line = text.count("\n", 0, start)
    line_start = text.rfind("\n", 0, start) + 1
    line_text = text.splitlines()[line]
    return types.Position(line=line, character=column(line_text, start - line_start, encoding))


def apply_edits(text: str, edits: list[tuple[Any, str]], encoding: str) -> str:
    """Apply ``(range, new_text)`` edits (JSON dicts or lsprotocol ranges) to ``text``, LSP style."""
    lines = text.split("\n")

    def offset(position: Any) -> int:
        line = position["line"] if isinstance(position, dict) else position.line
        character = position["character"] if isinstance(position, dict) else position.character
        return sum(len(lines[i]) + 1 for i in range(line)) + cp_column(lines[line], character, encoding)

    spans = []
    for range_, new_text in edits:
        start = range_["start"] if isinstance(range_, dict) else range_.start
        end = range_["end"] if isinstance(range_, dict) else range_.end
        spans.append((offset(start), offset(end), new_text))
    for start, end, new_text in sorted(spans, reverse=True):
        text = text[:start] + new_text + text[end:]
    return text


def plain(value: Any) -> Any:
    """pygls hands untyped results over as nested namedtuples: back to JSON values."""
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {key: plain(item) for key, item in value._asdict().items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


def feedback_records(state_dir: Path) -> list[dict[str, Any]]:
    path = state_dir / "feedback.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# -- the client ---------------------------------------------------------------------


def capabilities(preset: str, encodings: list[str] | None = None) -> types.ClientCapabilities:
    caps = client_capabilities(preset)
    if encodings is not None:
        caps.general = types.GeneralClientCapabilities(position_encodings=encodings)
    return caps


class Editor:
    """A pytest-lsp client plus the little an editor remembers: text, version, encoding."""

    def __init__(self, client: LanguageClient, encoding: str, state_dir: Path) -> None:
        self.client = client
        self.encoding = encoding
        self.state_dir = state_dir
        self.text: dict[str, str] = {}
        self.version: dict[str, int] = {}

    def open(self, uri: str, text: str) -> None:
        self.text[uri], self.version[uri] = text, 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
            )
        )

    def replace(self, uri: str, old: str, new: str, occurrence: int = 0) -> types.Position:
        """Replace one occurrence by an incremental change; returns the position after the new text."""
        text = self.text[uri]
        start = position_of(text, old, self.encoding, occurrence)
        end = types.Position(line=start.line, character=start.character + len(old))  # ASCII identifiers
        self.version[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.version[uri]),
                content_changes=[
                    types.TextDocumentContentChangePartial(range=types.Range(start=start, end=end), text=new)
                ],
            )
        )
        index = -1
        for _ in range(occurrence + 1):
            index = text.index(old, index + 1)
        self.text[uri] = text[:index] + new + text[index + len(old) :]
        return types.Position(line=start.line, character=start.character + len(new))

    def apply(self, edits: list[tuple[str, Any, str]]) -> None:
        """Apply ``(uri, range, new_text)`` edits as the client would: one didChange per document,
        its changes last-first so each range still means what it meant."""
        for uri in dict.fromkeys(u for u, _, _ in edits):
            mine = sorted(
                ((r, t) for u, r, t in edits if u == uri),
                key=lambda e: (e[0]["start"]["line"], e[0]["start"]["character"]),
                reverse=True,
            )
            self.version[uri] += 1
            self.client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.version[uri]),
                    content_changes=[
                        types.TextDocumentContentChangePartial(
                            range=types.Range(
                                start=types.Position(**range_["start"]), end=types.Position(**range_["end"])
                            ),
                            text=text,
                        )
                        for range_, text in mine
                    ],
                )
            )
            self.text[uri] = apply_edits(self.text[uri], mine, self.encoding)

    async def inline_edit(self, uri: str, position: types.Position, version: int | None = None) -> dict[str, Any]:
        params = {
            "textDocument": {"uri": uri, "version": self.version.get(uri, 1) if version is None else version},
            "position": {"line": position.line, "character": position.character},
        }
        return plain(await self.client.protocol.send_request_async(COPILOT_INLINE_EDIT, params))

    async def code_actions(self, uri: str, position: types.Position) -> list[types.CodeAction]:
        result = await self.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(start=position, end=position),
                context=types.CodeActionContext(diagnostics=[], trigger_kind=types.CodeActionTriggerKind.Invoked),
            )
        )
        return [a for a in result or [] if isinstance(a, types.CodeAction)]

    async def execute(self, command: types.Command | dict[str, Any]) -> Any:
        if isinstance(command, dict):
            command = types.Command(title=command["title"], command=command["command"], arguments=command["arguments"])
        return await self.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=command.command, arguments=command.arguments)
        )


def make_client() -> LanguageClient:
    """pytest-lsp's client, reading code actions right.

    lsprotocol 2025.0.0 structures every ``Command | CodeAction`` that has a
    ``command`` field as a ``Command`` -- which a code action carrying its
    accept command also has. Real editors read JSON and are unaffected.
    """
    client = make_test_lsp_client()
    converter = client.protocol._converter

    def command_or_code_action(obj: Any, _: type) -> types.Command | types.CodeAction:
        if isinstance(obj.get("command"), str):
            return converter.structure(obj, types.Command)
        return converter.structure(obj, types.CodeAction)

    converter.register_structure_hook(types.Command | types.CodeAction, command_or_code_action)
    converter.register_structure_hook(Union[types.Command, types.CodeAction], command_or_code_action)  # noqa: UP007 - cattrs keys hooks by the typing.Union object
    return client


async def start_editor(
    preset: str, state_dir: Path, encodings: list[str] | None = None, options: Any = None
) -> tuple[Editor, types.InitializeResult]:
    config = ClientServerConfig(
        server_command=[sys.executable, "-m", "nextedit", "lsp", "--state-dir", str(state_dir)],
        client_factory=make_client,
    )
    client = await config.start()
    result = await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities(preset, encodings),
            root_uri="file:///project",
            workspace_folders=[types.WorkspaceFolder(uri="file:///project", name="project")],
            initialization_options=options,
        )
    )
    encoding = str(getattr(result.capabilities.position_encoding, "value", result.capabilities.position_encoding))
    return Editor(client, encoding, state_dir), result


@pytest_asyncio.fixture
async def editor_factory(tmp_path: Path) -> AsyncIterator[Any]:
    started: list[Editor] = []

    async def start(
        preset: str = "neovim", encodings: list[str] | None = None, options: Any = None
    ) -> tuple[Editor, types.InitializeResult]:
        editor, result = await start_editor(preset, tmp_path / "state", encodings, options)
        started.append(editor)
        return editor, result

    yield start
    for editor in started:
        await editor.client.shutdown_session()
        await editor.client.stop()


# -- capabilities -----------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["neovim", "visual_studio_code"])
async def test_capabilities(editor_factory: Any, preset: str) -> None:
    editor, result = await editor_factory(preset)
    caps = result.capabilities
    sync = caps.text_document_sync
    assert isinstance(sync, types.TextDocumentSyncOptions)
    assert sync.change == types.TextDocumentSyncKind.Incremental and sync.open_close
    assert caps.execute_command_provider is not None
    assert "nextedit.accept" in caps.execute_command_provider.commands
    assert isinstance(caps.code_action_provider, types.CodeActionOptions)
    assert types.CodeActionKind.RefactorRewrite in caps.code_action_provider.code_action_kinds
    assert caps.inline_completion_provider is not None
    # neovim 0.11 prefers utf-8; the VS Code preset sends no list: utf-16
    assert editor.encoding == ("utf-8" if preset == "neovim" else "utf-16")


# -- the scenario, per editor --------------------------------------------------------------


@pytest.mark.parametrize("preset", ["neovim", "visual_studio_code"])
async def test_rename_propagates_as_inline_edit_and_code_action(editor_factory: Any, preset: str) -> None:
    editor, _ = await editor_factory(preset)
    editor.open(URI, SOURCE)
    cursor = editor.replace(URI, "result", "total")

    inline = await editor.inline_edit(URI, cursor)
    edits = inline["edits"]
    assert edits, "no inline edit for the other occurrence"
    for edit in edits:
        assert edit["textDocument"] == {"uri": URI, "version": 2}
        assert edit["command"]["command"] == "nextedit.accept"
        assert edit["command"]["arguments"] and isinstance(edit["command"]["arguments"][0], str)
    assert apply_edits(editor.text[URI], [(e["range"], e["text"]) for e in edits], editor.encoding) == RENAMED

    actions = await editor.code_actions(URI, cursor)
    rewrite = [a for a in actions if a.kind == types.CodeActionKind.RefactorRewrite]
    assert rewrite, actions
    action = rewrite[0]
    assert action.is_preferred
    assert action.edit is not None and action.edit.document_changes
    (change,) = action.edit.document_changes
    assert isinstance(change, types.TextDocumentEdit)
    assert change.text_document.uri == URI and change.text_document.version == 2
    assert apply_edits(editor.text[URI], [(e.range, e.new_text) for e in change.edits], editor.encoding) == RENAMED
    assert action.command is not None and action.command.command == "nextedit.accept"

    await editor.execute(action.command)
    records = feedback_records(editor.state_dir)
    accepted = [r for r in records if r["action"] == "accept"]
    assert [r["suggestionId"] for r in accepted] == list(action.command.arguments)
    assert accepted[0]["session"] == "lsp"


GEOM_URI = "file:///project/geom.py"
MAIN_URI = "file:///project/main.py"


async def test_a_cross_file_rename_names_the_other_document_and_its_version(editor_factory: Any) -> None:
    editor, _ = await editor_factory("neovim")
    editor.open(GEOM_URI, GEOM)
    editor.open(MAIN_URI, MAIN)
    for _ in range(3):  # main.py's version moves on, geom.py's stays apart from it
        editor.replace(MAIN_URI, "print", "print")
    cursor = editor.replace(GEOM_URI, "area", "surface")
    assert editor.version[GEOM_URI] != editor.version[MAIN_URI]

    items = (await editor.inline_edit(GEOM_URI, cursor))["edits"]
    assert items and {(e["textDocument"]["uri"], e["textDocument"]["version"]) for e in items} == {
        (MAIN_URI, editor.version[MAIN_URI])
    }
    actions = await editor.code_actions(GEOM_URI, cursor)
    rename = next(a for a in actions if a.title.startswith("Rename"))
    assert rename.title == "Rename area → surface (3 occurrences in main.py)"
    (change,) = rename.edit.document_changes
    assert (change.text_document.uri, change.text_document.version) == (MAIN_URI, editor.version[MAIN_URI])

    editor.apply([(e["textDocument"]["uri"], e["range"], e["text"]) for e in items])
    assert editor.text[MAIN_URI] == MAIN.replace("area", "surface")
    assert editor.text[GEOM_URI] == GEOM.replace("area", "surface")


async def test_accepting_one_site_of_a_repeated_edit_moves_the_cursor_to_the_next(editor_factory: Any) -> None:
    editor, _ = await editor_factory("neovim")
    editor.open(URI, TESTS)
    cursor = editor.replace(URI, "assertEquals", "assertEqual")
    walked = []
    for _ in range(4):  # the four other sites, one accept each
        items = (await editor.inline_edit(URI, cursor))["edits"]
        assert len(items) == 1, items
        editor.apply([(URI, items[0]["range"], items[0]["text"])])
        shown = len(editor.client.shown_documents)
        await editor.execute(items[0]["command"])
        walked.append(items[0]["range"]["start"]["line"])
        if len(editor.client.shown_documents) > shown:
            show = editor.client.shown_documents[-1]
            assert show.uri == URI and show.take_focus
            cursor = show.selection.start
    assert walked == [6, 7, 8, 9]
    assert editor.text[URI] == TESTS.replace("assertEquals", "assertEqual")
    # every site walked: the cursor went to each next one, and nothing was left to show after the last
    assert [d.selection.start.line for d in editor.client.shown_documents] == [7, 8, 9]


async def test_titles_and_the_apply_at_every_site_action(editor_factory: Any) -> None:
    editor, _ = await editor_factory("neovim")
    editor.open(URI, TESTS)
    editor.replace(URI, "assertEquals", "assertEqual")
    cursor = editor.replace(URI, "assertEquals", "assertEqual")  # the second example: a search-and-replace
    actions = await editor.code_actions(URI, cursor)
    titles = [a.title for a in actions]
    assert titles[0] == "line 8: assertEquals → assertEqual (2 more)", titles
    every = next(a for a in actions if a.title.startswith("Apply at every site"))
    assert every.title == "Apply at every site: assertEquals → assertEqual (3 sites)"
    (change,) = every.edit.document_changes
    assert change.text_document.version == editor.version[URI]
    assert apply_edits(editor.text[URI], [(e.range, e.new_text) for e in change.edits], editor.encoding) == (
        TESTS.replace("assertEquals", "assertEqual")
    )


# -- settings ----------------------------------------------------------------------------


def configure(editor: Editor, settings: Any) -> None:
    editor.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=settings))


async def test_search_and_replace_off_at_start_and_on_again(editor_factory: Any) -> None:
    editor, _ = await editor_factory("neovim", options={"nextedit": {"kinds": {"searchAndReplace": False}}})
    editor.open(URI, TESTS)
    editor.replace(URI, "assertEquals", "assertEqual")
    cursor = editor.replace(URI, "assertEquals", "assertEqual")
    titles = [a.title for a in await editor.code_actions(URI, cursor)]
    assert titles and not any(t.startswith("Apply at every site") for t in titles), titles
    configure(editor, {"nextedit": {"kinds": {"searchAndReplace": True}}, "pylsp": {"plugins": {}}})
    titles = [a.title for a in await editor.code_actions(URI, cursor)]
    assert any(t.startswith("Apply at every site") for t in titles), titles


async def test_languages_and_confidence_from_the_configuration(editor_factory: Any) -> None:
    editor, _ = await editor_factory("neovim")
    editor.open(URI, SOURCE)
    cursor = editor.replace(URI, "result", "total")
    assert (await editor.inline_edit(URI, cursor))["edits"]
    configure(editor, {"nextedit": {"languages": ["rust", "go"]}})
    assert (await editor.inline_edit(URI, cursor))["edits"] == []
    configure(editor, {"nextedit": {"languages": ["python"], "minConfidence": 1}})
    assert (await editor.inline_edit(URI, cursor))["edits"] == []
    configure(editor, {"somethingElse": True})  # not ours: nothing changes
    assert (await editor.inline_edit(URI, cursor))["edits"] == []
    configure(editor, {"nextedit": {}})  # the configuration layer emptied: the defaults again
    assert (await editor.inline_edit(URI, cursor))["edits"]


async def test_settings_that_cannot_be_read_are_named_to_the_user(editor_factory: Any) -> None:
    options = {"minConfidence": "high", "kinds": {"jump": False}}  # our keys at the top, as Helix sends them
    editor, _ = await editor_factory("neovim", options=options)
    warnings = [m for m in editor.client.messages if m.type == types.MessageType.Warning]
    assert [m.message for m in warnings] == [
        "nextedit: initializationOptions.minConfidence must be a number from 0 to 1; ignored"
    ]
    editor.open(URI, SOURCE)
    cursor = editor.replace(URI, "result", "total")
    assert (await editor.inline_edit(URI, cursor))["edits"]  # the default confidence held


async def test_accept_of_every_inline_edit_is_recorded_once(editor_factory: Any) -> None:
    # sidekick.nvim executes the command of each inline edit it applies
    editor, _ = await editor_factory("neovim")
    source = "def f(value):\n    print(value)\n    return value + value\n"
    editor.open(URI, source)
    cursor = editor.replace(URI, "value", "amount")
    edits = (await editor.inline_edit(URI, cursor))["edits"]
    assert len(edits) >= 2
    for edit in edits:
        await editor.execute(edit["command"])
    accepted = [r for r in feedback_records(editor.state_dir) if r["action"] == "accept"]
    assert len(accepted) == 1


async def test_inline_edit_shown_then_ignored_is_rejected(editor_factory: Any) -> None:
    editor, _ = await editor_factory("neovim")
    editor.open(URI, SOURCE)
    cursor = editor.replace(URI, "result", "total")
    edits = (await editor.inline_edit(URI, cursor))["edits"]
    assert edits
    suggestion_id = edits[0]["command"]["arguments"][0]
    editor.client.protocol.notify(DID_SHOW_INLINE_EDIT, {"item": {"command": edits[0]["command"]}})

    # the developer types somewhere else: on the last line, far from the suggestion's ranges
    editor.replace(URI, "print", "show")
    await editor.inline_edit(URI, types.Position(line=0, character=0))  # a round trip: the change is applied
    rejected = [r for r in feedback_records(editor.state_dir) if r["action"] == "reject"]
    assert [(r["suggestionId"], r["reason"]) for r in rejected] == [(suggestion_id, "ignored")]


async def test_inline_edit_applied_is_not_rejected(editor_factory: Any) -> None:
    editor, _ = await editor_factory("neovim")
    editor.open(URI, SOURCE)
    cursor = editor.replace(URI, "result", "total")
    edits = (await editor.inline_edit(URI, cursor))["edits"]
    editor.client.protocol.notify(DID_SHOW_INLINE_EDIT, {"item": {"command": edits[0]["command"]}})
    editor.replace(URI, "result", "total")  # the client applies the edit...
    await editor.execute(edits[0]["command"])  # ...then runs its command
    actions = [r["action"] for r in feedback_records(editor.state_dir)]
    assert actions == ["accept"]


async def test_inline_completion_on_the_cursor_line(editor_factory: Any) -> None:
    editor, _ = await editor_factory("visual_studio_code")
    source = "def f(a):\n    size = a; print(size, size)\n"
    editor.open(URI, source)
    cursor = editor.replace(URI, "size", "count")
    result = await editor.client.text_document_inline_completion_async(
        types.InlineCompletionParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            position=cursor,
            context=types.InlineCompletionContext(trigger_kind=types.InlineCompletionTriggerKind.Automatic),
        )
    )
    assert result is not None
    items = result.items if isinstance(result, types.InlineCompletionList) else result
    (item,) = items
    assert item.range is not None and item.range.start.line == item.range.end.line == 1
    assert item.range.start.character <= cursor.character <= item.range.end.character
    new = apply_edits(editor.text[URI], [(item.range, item.insert_text)], editor.encoding)
    assert new == source.replace("size", "count")
    assert item.command is not None and item.command.command == "nextedit.accept"


# -- encodings -------------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
async def test_encodings_with_emoji_before_the_identifier(editor_factory: Any, encoding: str) -> None:
    editor, result = await editor_factory("neovim", [encoding])
    assert editor.encoding == encoding
    editor.open(EMOJI_URI, EMOJI_SOURCE)
    # the occurrence after the emoji on line 1
    cursor = editor.replace(EMOJI_URI, "count", "total")
    assert cursor.character == column(
        EMOJI_SOURCE.splitlines()[1], EMOJI_SOURCE.splitlines()[1].index("count") + 5, encoding
    )

    edits = (await editor.inline_edit(EMOJI_URI, cursor))["edits"]
    assert edits
    assert apply_edits(editor.text[EMOJI_URI], [(e["range"], e["text"]) for e in edits], encoding) == EMOJI_RENAMED

    actions = await editor.code_actions(EMOJI_URI, cursor)
    action = next(a for a in actions if a.is_preferred)
    (change,) = action.edit.document_changes
    assert apply_edits(editor.text[EMOJI_URI], [(e.range, e.new_text) for e in change.edits], encoding) == EMOJI_RENAMED


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
async def test_encodings_rename_from_another_line_reaches_the_emoji_line(editor_factory: Any, encoding: str) -> None:
    editor, _ = await editor_factory("neovim", [encoding])
    editor.open(EMOJI_URI, EMOJI_SOURCE)
    cursor = editor.replace(EMOJI_URI, "count", "total", occurrence=2)  # `return count`
    edits = (await editor.inline_edit(EMOJI_URI, cursor))["edits"]
    assert apply_edits(editor.text[EMOJI_URI], [(e["range"], e["text"]) for e in edits], encoding) == EMOJI_RENAMED
    emoji_line = [e for e in edits if e["range"]["start"]["line"] == 1]
    assert emoji_line
    line_text = EMOJI_SOURCE.splitlines()[1]
    assert emoji_line[0]["range"]["start"]["character"] == column(line_text, line_text.index("count"), encoding)


# -- bad input ----------------------------------------------------------------------------------


async def test_unknown_document_stale_version_and_wild_positions(editor_factory: Any) -> None:
    editor, _ = await editor_factory("neovim")
    editor.open(URI, SOURCE)
    cursor = editor.replace(URI, "result", "total")

    assert await editor.inline_edit("file:///nowhere.py", cursor, version=1) == {"edits": []}
    assert await editor.inline_edit(URI, cursor, version=1) == {"edits": []}  # older than the mirror
    assert await editor.inline_edit(URI, cursor, version=9) == {"edits": []}  # newer than the mirror
    assert await editor.code_actions("file:///nowhere.py", cursor) == []
    far = types.Position(line=10_000, character=10_000)
    assert "edits" in await editor.inline_edit(URI, far)
    await editor.code_actions(URI, far)

    # a change for a document never opened is ignored, and the server still answers
    editor.client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri="file:///nowhere.py", version=3),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="x = 1\n")],
        )
    )
    assert (await editor.inline_edit(URI, cursor))["edits"]


@pytest.mark.parametrize(
    "params",
    [
        {"textDocument": {"uri": URI, "version": 1}},
        {"position": {"line": 0, "character": 0}},
        {"textDocument": {"uri": 7}, "position": {"line": 0, "character": 0}},
        {"textDocument": {"uri": URI}, "position": {"line": "zero", "character": 0}},
        None,
    ],
)
async def test_malformed_inline_edit_params_are_answered_invalid_params(editor_factory: Any, params: Any) -> None:
    editor, _ = await editor_factory("neovim")
    editor.open(URI, SOURCE)
    with pytest.raises(JsonRpcException) as raised:
        await editor.client.protocol.send_request_async(COPILOT_INLINE_EDIT, params)
    assert raised.value.code == -32602


async def test_bad_accept_arguments_are_invalid_params_and_unknown_ids_harmless(editor_factory: Any) -> None:
    editor, _ = await editor_factory("neovim")
    with pytest.raises(JsonRpcException) as raised:
        await editor.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="nextedit.accept", arguments=[])
        )
    assert raised.value.code == -32602
    await editor.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="nextedit.accept", arguments=["s-does-not-exist"])
    )
