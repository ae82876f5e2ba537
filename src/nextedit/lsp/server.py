"""The LSP bridge: a pygls server whose every handler converts in, calls the session, converts out.

One :class:`~nextedit.session.Session` (id ``"lsp"``) per server process,
created at ``initialize`` with the position encoding pygls negotiated (the
client's first of utf-8/utf-16/utf-32, else utf-16). Documents are synced
incrementally straight into the session (see :mod:`nextedit.lsp.protocol`).

Carriers (see ``DESIGN.md`` "LSP bridge mapping"):

- ``textDocument/copilotInlineEdit`` (custom, untyped) → the best suggestion
  that changes text, one inline edit per range, each with the accept command;
  ``textDocument/didShowInlineEdit`` marks it shown (see :mod:`.offers`).
- ``textDocument/inlineCompletion`` → the best suggestion whose edits all lie
  on the cursor line, as one replacement.
- ``textDocument/codeAction`` → one ``refactor.rewrite`` action per
  suggestion, titled with its change (:mod:`.actions`), with a versioned
  ``WorkspaceEdit`` (a jump: command only), the first that edits preferred;
  a search-and-replace is the "apply at every site" action.
- ``workspace/executeCommand`` ``nextedit.accept [id]`` → ``Session.accept``;
  a jump then opens its target with ``window/showDocument``, and an edit at
  one site of a repeated change moves the cursor to the next site.
  ``nextedit.reject [id, reason?]`` → ``Session.reject``.

Handlers are synchronous on purpose: pygls runs them on its event loop in
arrival order, so notifications apply strictly in order and the session is
never touched from two threads. Suggestions take milliseconds. A document
just opened, or just edited, is parsed ahead of its next suggestion, in a
worker thread on a snapshot, while the developer reads it or pauses
(:mod:`.parse_ahead`). After a suggestion, once no more input has been
read, the young generations are collected (:class:`nextedit.heap.BetweenRequests`):
the collector's pauses fall between requests instead of inside the next one.

The one exception is the model (:mod:`nextedit.provider`). The three
suggestion handlers are generators: the engine runs synchronously as above
and, when it has nothing and a provider is configured, the handler yields
to pygls a coroutine that waits for the model in a worker thread
(:meth:`~nextedit.session.SuggestWork.ask_model`, on the request's snapshot;
the engine is not touched there). Meanwhile the loop reads on: a newer
``didChange`` of the document, its ``didClose``/``didOpen``, or
``$/cancelRequest`` of the request abandons the model's request at once.
Without a provider the generators return before yielding: nothing changes.
Credentials in the provider settings never reach a log: pygls's own log of
the ``initialize`` params is cut (:class:`_HideInitializeParams`).
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from nextedit import __version__, heap
from nextedit.feedback import FeedbackLog, open_feedback_log
from nextedit.lsp import actions, convert, framing
from nextedit.lsp.offers import OfferBook
from nextedit.lsp.parse_ahead import ParsesAhead
from nextedit.lsp.protocol import LenientProtocol
from nextedit.session import AnswerTally, PlacedSuggestion, Session, SuggestResult, SuggestWork
from nextedit.settings import Settings, settings_section
from nextedit.suggest.model import SuggestionKinds
from nextedit.syntax.closed_trees import ClosedTrees
from nextedit.text import Document, Position, PositionEncoding

if TYPE_CHECKING:
    from nextedit.provider.service import ModelProvider

__all__ = ["COPILOT_INLINE_EDIT", "DID_SHOW_INLINE_EDIT", "NextEditServer", "create_server"]

log = logging.getLogger(__name__)

# what a suggestion handler yields to pygls and gets back: (coroutine function, args, kwargs) → its result
Flow = Generator[tuple[Callable[..., Any], tuple[Any, ...], None], Any, list[PlacedSuggestion]]

COPILOT_INLINE_EDIT = "textDocument/copilotInlineEdit"
DID_SHOW_INLINE_EDIT = "textDocument/didShowInlineEdit"
SESSION_ID = "lsp"


class _HideInitializeParams(logging.Filter):
    """pygls logs the whole ``initialize`` params at INFO; ``initializationOptions`` may hold
    the provider's credentials, so the record keeps its message and loses its params."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and record.msg.startswith("Language server initialized"):
            record.msg = "Language server initialized (params not logged: they may hold credentials)"
            record.args = ()
        return True


logging.getLogger("pygls.protocol.language_server").addFilter(_HideInitializeParams())


@dataclass(eq=False)
class ModelWait:
    """A suggestion waiting for the model: abandoned when its document moves on or it is cancelled."""

    uri: str
    version: int
    request_id: Any
    abandoned: threading.Event = field(default_factory=threading.Event)


async def _wait_for_model(work: SuggestWork, engine_result: SuggestResult, wait: ModelWait) -> SuggestResult:
    """The model's answer, awaited in a worker thread (never raises: a failure is the engine's answer)."""
    try:
        return await asyncio.to_thread(work.ask_model, engine_result, wait.abandoned.is_set)
    except asyncio.CancelledError:
        wait.abandoned.set()
        raise
    except Exception:  # a bug: the engine's (silent) answer stands
        log.exception("asking the model failed")
        return engine_result


class NextEditServer(LanguageServer):
    """pygls server state: the session, what was offered, where feedback goes."""

    def __init__(self, state_dir: Path | None = None, settings: Settings | None = None) -> None:
        super().__init__(
            "nextedit",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=LenientProtocol,
        )
        self.state_dir = state_dir
        self.offers = OfferBook()
        self._session: Session | None = None
        # the trees of closed documents: a re-open (even in the session a new initialize makes) starts from one
        self.closed_trees = ClosedTrees()
        # the verdicts on the answers of every session this server makes (Session.tally)
        self.answer_tally = AnswerTally()
        # each opened document is parsed ahead of its first suggestion, while the developer reads
        self.parses = ParsesAhead()
        self._feedback: FeedbackLog | None = None
        self._feedback_failed = False
        # settings: the command line's, then initializationOptions, then the latest configuration
        self.flag_settings = settings or Settings()
        self.settings = self.flag_settings
        self._settings_layers: dict[str, Any] = {}
        # the model behind the engine (made when one is first configured), the suggestions waiting for it
        self.provider: ModelProvider | None = None
        self.model_waits: list[ModelWait] = []
        # suggestions the engine computed: the collections between requests follow them (heap.BetweenRequests)
        self.computed = 0
        if isinstance(self.protocol, LenientProtocol):
            self.protocol.on_cancel = self.abandon_request

    @property
    def session(self) -> Session:
        if self._session is None:  # a client talking before initialize
            self._session = self._new_session(PositionEncoding.UTF16, None)
        return self._session

    @property
    def encoding(self) -> PositionEncoding:
        return self.session.encoding

    def start_session(self, encoding: PositionEncoding, root_uri: str | None) -> None:
        self.parses.halt()
        self._session = self._new_session(encoding, root_uri)
        log.info("session %s: position encoding %s", SESSION_ID, encoding)

    def _new_session(self, encoding: PositionEncoding, root_uri: str | None) -> Session:
        session = Session(
            SESSION_ID,
            encoding,
            feedback=self._feedback_log(),
            workspace_uri=root_uri,
            closed_trees=self.closed_trees,
            tally=self.answer_tally,
        )
        self._configure(session)
        return session

    def _configure(self, session: Session) -> None:
        # every kind the user allows: each still carries its concrete edits, and code actions can say more
        session.kinds = self.settings.kinds(SuggestionKinds(jump=True, rename=True, search_and_replace=True))
        self.settings.configure(session.engine)
        if self.provider is None and self.settings.provider is not None:
            from nextedit.provider.service import ModelProvider

            self.provider = ModelProvider()
        if self.provider is not None:
            self.provider.configure(self.settings.provider_config())
        session.provider = self.provider

    def set_settings(self, layer: str, values: Any) -> list[str]:
        """Replace one layer of settings (``initializationOptions`` or ``configuration``) and apply
        them all; the problems of this layer, each also shown to the user."""
        self._settings_layers[layer] = values
        settings, problems = self.flag_settings, []
        for name, layer_values in self._settings_layers.items():
            settings, found = settings.read(layer_values, name)
            if name == layer:
                problems = found
        self.settings = settings
        if self._session is not None:
            self._configure(self._session)
        log.info("settings: %s", settings)
        for problem in problems:
            log.warning("settings: %s", problem)
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Warning, message=f"nextedit: {problem}; ignored")
            )
        return problems

    def _feedback_log(self) -> FeedbackLog | None:
        """The feedback log, opened once; ``None`` (one error line logged) when the state dir is unusable."""
        if self._feedback is None and not self._feedback_failed:
            self._feedback = open_feedback_log(self.state_dir)
            self._feedback_failed = self._feedback is None
        return self._feedback

    def serve_stdio(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
        """Serve until end of input or ``exit``; the exit code (1 for ``exit`` without ``shutdown``).

        Replaces pygls's reading loop with :mod:`.framing`, which survives bad
        headers, bounds lengths and answers unreadable bodies.
        """
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        reader = framing.FrameReader(framing.StreamChunks(stdin or sys.stdin.buffer).read)
        code = 0
        heap.settle()  # the collector's policy for a long-running process, as in the ACP agent
        collector = heap.BetweenRequests()
        try:
            asyncio.run(
                framing.serve(reader, self.protocol, self._stop_event, idle=lambda: collector.after(self.computed))
            )
        except SystemExit as exc:  # the `exit` notification
            code = exc.code if isinstance(exc.code, int) else 0
        except BrokenPipeError:
            log.error("the client closed its end of the connection")
        finally:
            self.shutdown()
        return code

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        self.serve_stdio(stdin, stdout)

    def report_server_error(self, error: Exception, source: Any) -> None:
        # logged by pygls with its traceback; never pop up messages in the editor
        log.error("%s: %s", getattr(source, "__name__", source), error)

    # -- helpers the handlers share -------------------------------------------

    def suggestions(
        self,
        uri: str,
        version: int | None,
        position: Position,
        *,
        trigger_kind: str = "automatic",
    ) -> Flow:
        """The session's suggestions, best first; empty for unknown documents or other versions.

        A generator for pygls (``yield from`` it in a handler): it yields
        only to wait for the model (see the module docstring). The engine
        has already dropped edits that change nothing: a suggestion other
        than a jump always edits something.
        """
        session = self.session
        self.parses.halt(uri)  # this handler parses it now, if it must
        state = session.get(uri)
        if state is None:
            log.debug("suggest: unknown document %s", uri)
            return []
        if version is None:
            version = state.document.version
        work = session.prepare_suggest(uri, version, position, trigger_kind=trigger_kind)
        if work is None:
            return []
        result = work.compute_engine()
        self.computed += 1
        if work.wants_model(result):
            wait = ModelWait(uri, version, self.protocol.msg_id)
            self.model_waits.append(wait)
            try:
                result = yield _wait_for_model, (work, result, wait), None
            finally:
                self.model_waits.remove(wait)
        placed = session.finish_suggest(work, result)
        self.offers.offer(placed)
        return placed

    def abandon_waits(self, uri: str, version: int | None = None) -> None:
        """Abandon the model requests for ``uri`` older than ``version`` (``None``: all of them)."""
        for wait in self.model_waits:
            if wait.uri == uri and (version is None or wait.version < version):
                wait.abandoned.set()

    def abandon_request(self, request_id: Any) -> None:
        """``$/cancelRequest``: abandon that request's model request, if it has one."""
        for wait in self.model_waits:
            if wait.request_id == request_id:
                wait.abandoned.set()

    def document_of(self, uri: str) -> Document | None:
        state = self.session.get(uri)
        return state.document if state is not None else None

    def next_site(self, accepted: PlacedSuggestion) -> Position | None:
        """Where the next edit is after ``accepted`` was applied: the start of the best
        suggestion's nearest edit in the same document, or ``None``."""
        state = self.session.get(accepted.uri)
        if state is None or not accepted.edits:
            return None
        here = accepted.edits[0].range.start  # still the edit's start once it is applied
        for suggestion in self.session.suggest(accepted.uri, state.document.version, here, model=False):
            if suggestion.kind == "jump" or suggestion.uri != accepted.uri or not suggestion.edits:
                continue
            starts = sorted((e.range.start for e in suggestion.edits), key=_key)
            return next((start for start in starts if _key(start) >= _key(here)), starts[0])
        return None

    def document_changes_supported(self) -> bool:
        """Versioned ``documentChanges``: advertised, or implied by resource operations
        (which only exist inside ``documentChanges``; Neovim 0.11 says only that)."""
        capabilities = self.client_capabilities
        workspace = capabilities.workspace if capabilities else None
        edit = workspace.workspace_edit if workspace else None
        return bool(edit and (edit.document_changes or edit.resource_operations))

    def show_document_supported(self) -> bool:
        capabilities = self.client_capabilities
        window = capabilities.window if capabilities else None
        return bool(window and window.show_document and window.show_document.support)

    def show(self, uri: str, position: Position) -> None:
        """Move the editor's cursor (``window/showDocument``), when the client can."""
        if self.show_document_supported():
            self.window_show_document(convert.show_document_params(uri, position))


def _key(position: Position) -> tuple[int, int]:
    return (position.line, position.character)


# -- lifecycle and document sync ------------------------------------------------


def initialize(ls: NextEditServer, params: types.InitializeParams) -> None:
    negotiated = ls.workspace.position_encoding  # what pygls will announce
    encoding = PositionEncoding(getattr(negotiated, "value", negotiated) or "utf-16")
    ls.start_session(encoding, params.root_uri)
    options = settings_section(convert.plain_json(params.initialization_options))
    if options is not None:
        ls.set_settings("initializationOptions", options)


def did_change_configuration(ls: NextEditServer, params: types.DidChangeConfigurationParams) -> None:
    """``settings.nextedit`` (or our keys at the top) replaces the configuration layer;
    settings without our section leave ours as they are."""
    section = settings_section(convert.plain_json(params.settings))
    if section is None:
        log.debug("didChangeConfiguration without nextedit settings: ignored")
        return
    ls.set_settings("configuration", section)


def shutdown(ls: NextEditServer, params: Any) -> None:
    for wait in ls.model_waits:
        wait.abandoned.set()
    ls.parses.halt()
    ls.session.close()


def did_open(ls: NextEditServer, params: types.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    ls.offers.forget(doc.uri)
    ls.abandon_waits(doc.uri)
    ls.session.did_open(doc.uri, doc.language_id, doc.version, doc.text)
    ls.parses.opened(ls.session, doc.uri)


def did_change(ls: NextEditServer, params: types.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.parses.halt(uri)
    changes = [convert.change_from_wire(c) for c in params.content_changes]
    state = ls.session.get(uri)
    if state is not None and params.text_document.version > state.document.version:
        for suggestion_id in ls.offers.judge_change(uri, state.document.version, changes):
            ls.session.reject(suggestion_id, "ignored")
    if ls.session.did_change(uri, params.text_document.version, changes):
        ls.abandon_waits(uri, params.text_document.version)
        ls.parses.changed(ls.session, uri)


def did_close(ls: NextEditServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.offers.forget(params.text_document.uri)
    ls.abandon_waits(params.text_document.uri)
    ls.parses.halt(params.text_document.uri)
    ls.session.did_close(params.text_document.uri)


def did_save(ls: NextEditServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.session.did_save(params.text_document.uri)


# -- suggestions ------------------------------------------------------------------


def copilot_inline_edit(ls: NextEditServer, params: Any) -> Generator[Any, Any, dict[str, Any]]:
    """``{textDocument:{uri,version}, position}`` → ``{edits:[{text, textDocument, range, command}]}``.

    The best suggestion that edits; its edits may be in another document
    (a rename that reaches another open file): each item names its own.
    """
    params = convert.plain_json(params)
    try:
        uri, version = convert.text_document_from_json(convert.field(params, "textDocument"))
        position = convert.position_from_json(convert.field(params, "position"))
    except convert.ParamsError as exc:
        raise JsonRpcInvalidParams(f"{COPILOT_INLINE_EDIT}: {exc}") from exc
    for suggestion in (yield from ls.suggestions(uri, version, position)):
        if suggestion.edits:
            return {"edits": convert.inline_edits_json(suggestion)}
    return {"edits": []}


def did_show_inline_edit(ls: NextEditServer, params: Any) -> None:
    """``{item: {..., command: {arguments: [id]}}}``: the client displayed that suggestion."""
    params = convert.plain_json(params)
    try:
        arguments = convert.field(convert.field(convert.field(params, "item"), "command"), "arguments")
        suggestion_id = arguments[0]
    except (convert.ParamsError, IndexError, KeyError, TypeError):
        log.info("%s without a suggestion id: ignored", DID_SHOW_INLINE_EDIT)
        return
    if isinstance(suggestion_id, str) and ls.offers.show(suggestion_id) is None:
        log.debug("%s for unknown or settled suggestion %s", DID_SHOW_INLINE_EDIT, suggestion_id)


def inline_completion(
    ls: NextEditServer, params: types.InlineCompletionParams
) -> Generator[Any, Any, types.InlineCompletionList | None]:
    uri = params.text_document.uri
    cursor = convert.position_from_wire(params.position)
    manual = params.context.trigger_kind == types.InlineCompletionTriggerKind.Invoked
    suggestions = yield from ls.suggestions(uri, None, cursor, trigger_kind="manual" if manual else "automatic")
    document = ls.document_of(uri)
    for suggestion in suggestions:
        if document is None:
            break
        item = convert.inline_completion_item(suggestion, document, ls.encoding, cursor)
        if item is not None:
            return types.InlineCompletionList(items=[item])
    return None


def code_actions(
    ls: NextEditServer, params: types.CodeActionParams
) -> Generator[Any, Any, list[types.CodeAction] | None]:
    if not _kind_wanted(params.context.only):
        return None
    uri = params.text_document.uri
    manual = params.context.trigger_kind == types.CodeActionTriggerKind.Invoked
    answer = yield from ls.suggestions(
        uri,
        None,
        convert.range_from_wire(params.range).start,
        trigger_kind="manual" if manual else "automatic",
    )
    context = actions.ActionContext(uri, ls.document_of, ls.encoding, ls.document_changes_supported())
    return actions.code_actions(answer, context) or None


def _kind_wanted(only: Sequence[str] | None) -> bool:
    if not only:
        return True
    ours = str(convert.CODE_ACTION_KIND.value)
    return any(
        (wanted := str(getattr(kind, "value", kind))) == "" or ours == wanted or ours.startswith(wanted + ".")
        for kind in only
    )


# -- feedback ------------------------------------------------------------------------


def accept(ls: NextEditServer, *arguments: Any) -> None:
    """``nextedit.accept [id]``: record the accept once, then move the cursor on.

    A jump opens its target. An edit at one site of a repeated change moves
    the cursor to the next site (``window/showDocument``), so accepting
    again and again walks through them; renames and search-and-replace
    apply everywhere at once and leave the cursor alone.
    """
    suggestion_id = _suggestion_id(arguments, convert.ACCEPT_COMMAND)
    if not ls.offers.accept(suggestion_id):
        return None
    suggestion = ls.session.accept(suggestion_id)
    if suggestion is None:
        return None
    if suggestion.kind == "jump" and suggestion.position is not None:
        ls.show(suggestion.uri, suggestion.position)
    elif suggestion.kind == "edit" and ls.show_document_supported():
        target = ls.next_site(suggestion)
        if target is not None:
            ls.show(suggestion.uri, target)
    return None


def reject(ls: NextEditServer, *arguments: Any) -> None:
    """``nextedit.reject [id, reason?]``: the developer dismissed the suggestion."""
    suggestion_id = _suggestion_id(arguments, convert.REJECT_COMMAND)
    reason = arguments[1] if len(arguments) > 1 and isinstance(arguments[1], str) else "rejected"
    ls.offers.settle(suggestion_id)
    ls.session.reject(suggestion_id, reason)
    return None


def _suggestion_id(arguments: tuple[Any, ...], command: str) -> str:
    """The id from ``[id]`` or ``[{"id"|"suggestionId": id}]``."""
    first = convert.plain_json(arguments[0]) if arguments else None
    if isinstance(first, dict):
        first = first.get("id", first.get("suggestionId"))
    if not isinstance(first, str) or not first:
        raise JsonRpcInvalidParams(f"{command}: arguments[0] must be a suggestion id")
    return first


# -- assembly ---------------------------------------------------------------------------


def create_server(state_dir: Path | None = None, settings: Settings | None = None) -> NextEditServer:
    """A server with every handler registered; ``state_dir`` holds ``feedback.jsonl``,
    ``settings`` are the command line's (the client's settings are laid over them)."""
    server = NextEditServer(state_dir, settings)
    feature = server.feature
    feature(types.INITIALIZE)(initialize)
    feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)(did_change_configuration)
    feature(types.SHUTDOWN)(shutdown)
    feature(types.TEXT_DOCUMENT_DID_OPEN)(did_open)
    feature(types.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    feature(types.TEXT_DOCUMENT_DID_CLOSE)(did_close)
    feature(types.TEXT_DOCUMENT_DID_SAVE)(did_save)
    feature(COPILOT_INLINE_EDIT)(copilot_inline_edit)
    feature(DID_SHOW_INLINE_EDIT)(did_show_inline_edit)
    feature(types.TEXT_DOCUMENT_INLINE_COMPLETION, types.InlineCompletionOptions())(inline_completion)
    feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[convert.CODE_ACTION_KIND]),
    )(code_actions)
    server.command(convert.ACCEPT_COMMAND)(accept)
    server.command(convert.REJECT_COMMAND)(reject)
    return server
