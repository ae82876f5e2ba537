"""The model provider's parts, on their own: configuration, Zeta prompts, rewrites to edits, the HTTP call.

The HTTP tests talk to a real server on 127.0.0.1 (:mod:`tests.model_server`)
that answers from a script; the end-to-end behaviour through `nextedit acp`
and `nextedit lsp` is in ``test_provider_acp.py`` and ``test_provider_lsp.py``.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nextedit.history import EditHistory
from nextedit.provider.client import ProviderCancelled, ProviderError, ProviderTimeout, complete, parse_reply
from nextedit.provider.config import ProviderConfig, ProviderConfigError, check_base_url, check_headers
from nextedit.provider.defaults import API_KEY_ENV, DEFAULT_BUDGET_MS
from nextedit.provider.excerpt import EditEvent, edit_events, excerpt_around, path_of
from nextedit.provider.prompt import PromptInput, ReplyError, prompt_format
from nextedit.provider.region_diff import region_edits, similarity
from nextedit.provider.service import FAILURES_BEFORE_BACKOFF, ModelProvider
from nextedit.provider.zeta import (
    CURSOR_MARKER,
    EDITABLE_REGION_END_MARKER,
    EDITABLE_REGION_START_MARKER,
    START_OF_FILE_MARKER,
)
from nextedit.settings import Settings
from nextedit.text import Document, PositionEncoding, Range, TextChange
from tests.model_server import ModelServer, Reply, zeta_reply

SECRET = "sk-do-not-log-7f3a9c"

# -- configuration -------------------------------------------------------------------------


def test_a_config_never_shows_its_headers() -> None:
    config = ProviderConfig().with_endpoint("openai", "http://127.0.0.1:8080/v1/", {"Authorization": SECRET})
    assert config.base_url == "http://127.0.0.1:8080/v1"
    assert config.headers == (("Authorization", SECRET),)
    assert SECRET not in repr(config) and SECRET not in str(config)
    assert config.public() == {"apiType": "openai", "baseUrl": "http://127.0.0.1:8080/v1"}
    settings = Settings(provider=config)
    assert SECRET not in repr(settings)
    off = config.disabled()
    assert off.public() is None and off.headers == () and not off.enabled
    assert off.budget_ms == config.budget_ms  # the tuning stays


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("ftp://host/v1", "http:// or https://"),
        ("http:///v1", "http:// or https://"),
        ("http://user:pw@host/v1", "credentials"),
        ("http://host:99999/v1", "not a URL"),
        ("http://host/v1#frag", "fragment"),
        ("not a url", "http:// or https://"),
    ],
)
def test_a_base_url_must_be_http_with_a_host(url: str, problem: str) -> None:
    with pytest.raises(ProviderConfigError, match=problem) as caught:
        check_base_url(url)
    assert caught.value.field == "baseUrl"


def test_bad_headers_are_named_without_their_value() -> None:
    for headers, field in (
        ({"Authorization": 7}, "headers.Authorization"),
        ({"X-Key": f"{SECRET}\r\nHost: evil"}, "headers.X-Key"),
        ({"X-Key": f"{SECRET}\u2028"}, "headers.X-Key"),
        ({"Bad Name": SECRET}, "headers"),
    ):
        with pytest.raises(ProviderConfigError) as caught:
            check_headers(headers)
        assert caught.value.field == field
        assert SECRET not in str(caught.value)
    with pytest.raises(ProviderConfigError, match="apiType"):
        ProviderConfig().with_endpoint("anthropic", "http://127.0.0.1/v1", None)


def test_settings_read_a_provider_and_never_carry_credentials_to_another_url() -> None:
    settings, problems = Settings().read(
        {"provider": {"url": "http://127.0.0.1:8080/v1", "headers": {"Authorization": SECRET}, "budgetMs": 900}}
    )
    assert problems == []
    assert settings.provider.base_url == "http://127.0.0.1:8080/v1" and settings.provider.budget_ms == 900
    assert settings.provider.headers == (("Authorization", SECRET),)
    moved, _ = settings.read({"provider": {"url": "http://10.0.0.9:8080/v1"}})
    assert moved.provider.headers == () and moved.provider.budget_ms == 900
    same, _ = settings.read({"provider": {"model": "zeta"}})
    assert same.provider.headers == (("Authorization", SECRET),) and same.provider.model == "zeta"
    off, _ = settings.read({"provider": None})
    assert not off.provider.enabled and off.provider.headers == ()
    bad, problems = Settings().read(
        {"provider": {"url": "ftp://x", "budgetMs": 0, "format": "gpt", "headers": {"K": 1}, "colour": "red"}},
        "initializationOptions",
    )
    assert bad == Settings()
    assert problems == [
        "initializationOptions.provider.url: must be an http:// or https:// URL with a host",
        "initializationOptions.provider.headers.K: must be a string",
        "initializationOptions.provider.budgetMs: must be from 1 to 60000",
        "initializationOptions.provider.format: must be one of zeta",
        "initializationOptions.provider.colour is not a provider setting",
    ]


def test_flags_make_a_provider_with_the_key_from_the_environment() -> None:
    config = ProviderConfig.from_flags("http://127.0.0.1:8080/v1", budget_ms=500, environ={API_KEY_ENV: SECRET})
    assert config.headers == (("Authorization", f"Bearer {SECRET}"),) and config.budget_ms == 500
    assert ProviderConfig.from_flags(None, environ={API_KEY_ENV: SECRET}).headers == ()
    assert ProviderConfig.from_flags(None).budget_ms == DEFAULT_BUDGET_MS


# -- the region and the recent edits ------------------------------------------------------------


def numbered(n: int, width: int = 20) -> str:
    return "".join(f"line {i:03d} " + "x" * width + "\n" for i in range(n))


def test_the_editable_region_grows_by_lines_around_the_cursor_within_its_budget() -> None:
    text = numbered(200)
    doc = Document("file:///w/a.py", "python", 1, text)
    cursor = text.index("line 100") + 4
    excerpt = excerpt_around(doc, cursor, "a.py", editable_tokens=50, context_tokens=30)
    assert excerpt.editable_start <= cursor <= excerpt.editable_end
    assert text[excerpt.editable_start - 1] == "\n" and text[excerpt.editable_end] == "\n"
    region_lines = excerpt.editable.count("\n") + 1
    assert 4 <= region_lines <= 8  # 50 tokens of ~10-token lines, one up then one down
    assert excerpt.context_start < excerpt.editable_start and excerpt.context_end > excerpt.editable_end
    assert not excerpt.at_file_start
    small = excerpt_around(Document("u", "", 1, "a = 1\n"), 2, "u", editable_tokens=350)
    assert small.at_file_start and small.editable == "a = 1\n"[: small.editable_end]


@given(st.text(alphabet="ab \n\r😀漢", max_size=200), st.integers(0, 250), st.integers(16, 400))
def test_an_excerpt_is_well_formed_for_any_text_and_cursor(text: str, cursor: int, tokens: int) -> None:
    doc = Document("u", "", 1, text)
    e = excerpt_around(doc, cursor, "u", tokens, 20)
    assert 0 <= e.context_start <= e.editable_start <= e.cursor <= e.editable_end <= e.context_end <= len(text)
    # the region is whole lines (LSP line ends: \n, \r\n, \r)
    assert e.editable_start == 0 or text[e.editable_start - 1] in "\r\n"
    assert e.editable_end == len(text) or text[e.editable_end] in "\r\n"


def history_after(text: str, replacements: list[tuple[str, str]]) -> tuple[Document, EditHistory]:
    """A document and its history after replacing each ``old`` (first occurrence) by ``new``, in order."""
    doc = Document("file:///w/src/app.py", "python", 1, text)
    history = EditHistory(doc.uri)
    utf16 = PositionEncoding.UTF16
    for old, new in replacements:
        start = doc.text.index(old)
        rng = Range(doc.position_at(start, utf16), doc.position_at(start + len(old), utf16))
        history.record(doc.apply_changes([TextChange(rng, new)], doc.version + 1, utf16), doc)
    return doc, history


def test_recent_edits_become_unified_diff_hunks_oldest_first() -> None:
    text = "def area(w, h):\n    size = w * h\n    return size\n\n\nprint(area(1, 2))\n"
    doc, history = history_after(text, [("size", "total"), ("print", "log")])
    events = edit_events(("src/app.py", edit, doc) for edit in history.edits())
    assert [e.path for e in events] == ["src/app.py", "src/app.py"]
    assert events[0].hunk == "\n".join(
        ["@@ -1,5 +1,5 @@", " def area(w, h):", "-    size = w * h", "+    total = w * h", "     return size", " ", " "]
    )
    assert events[1].hunk == "\n".join(
        ["@@ -3,4 +3,4 @@", "     return size", " ", " ", "-print(area(1, 2))", "+log(area(1, 2))"]
    )
    # the budget keeps the newest
    assert edit_events((("src/app.py", e, doc) for e in history.edits()), budget_tokens=40) == events[1:]


def test_paths_are_relative_to_the_workspace() -> None:
    assert path_of("file:///w/src/app.py", "file:///w") == "src/app.py"
    assert path_of("file:///w/src/a%20b.py", "file:///w/") == "src/a b.py"
    assert path_of("file:///elsewhere/app.py", "file:///w") == "/elsewhere/app.py"
    assert path_of("untitled:1", None) == "untitled:1"


# -- the Zeta format -----------------------------------------------------------------------------------


def zeta_prompt(text: str, cursor: int, events: tuple[EditEvent, ...] = ()) -> tuple:
    doc = Document("file:///w/app.py", "python", 1, text)
    excerpt = excerpt_around(doc, cursor, "app.py", 350)
    fmt = prompt_format("zeta")
    return fmt, fmt.build(PromptInput(excerpt, events), 350)


def test_the_zeta_prompt_has_zeds_shape() -> None:
    text = "import os\n\ndef main():\n    print(os.getcwd())\n"
    cursor = text.index("print") + 5
    event = EditEvent("app.py", "@@ -1,1 +1,1 @@\n-import sys\n+import os")
    _, prompt = zeta_prompt(text, cursor, (event,))
    assert prompt.text == (
        "### Instruction:\n"
        "You are a code completion assistant and your task is to analyze user edits and then rewrite an excerpt "
        "that the user provides, suggesting the appropriate edits within the excerpt, taking into account the "
        "cursor location.\n\n"
        "### User Edits:\n\n"
        "User edited app.py:\n```diff\n@@ -1,1 +1,1 @@\n-import sys\n+import os\n```"
        "\n\n### User Excerpt:\n\n"
        "```app.py\n"
        f"{START_OF_FILE_MARKER}\n"
        f"{EDITABLE_REGION_START_MARKER}\n"
        f"import os\n\ndef main():\n    print{CURSOR_MARKER}(os.getcwd())\n"
        f"\n{EDITABLE_REGION_END_MARKER}"
        "\n```"
        "\n\n### Response:\n"
    )
    assert prompt.stop == (EDITABLE_REGION_END_MARKER,)


@given(
    st.text(alphabet="ab(): \n😀", max_size=120),
    st.integers(0, 130),
    st.text(alphabet="ab(): \n😀", max_size=60),
)
def test_a_zeta_reply_reads_back_as_the_region_it_carries(text: str, cursor: int, region: str) -> None:
    fmt, prompt = zeta_prompt(text, min(cursor, len(text)))
    assert fmt.parse(zeta_reply(prompt.text, region), prompt) == region
    # with the end marker (a server that does not strip its stop sequence) and a cursor marker inside
    marked = f"{EDITABLE_REGION_START_MARKER}\n{region[:3]}{CURSOR_MARKER}{region[3:]}\n{EDITABLE_REGION_END_MARKER}"
    assert fmt.parse(marked, prompt) == region


@pytest.mark.parametrize(
    "reply",
    [
        "no markers at all",
        f"{EDITABLE_REGION_START_MARKER}\na\n{EDITABLE_REGION_START_MARKER}\nb",
        f"{EDITABLE_REGION_END_MARKER}{EDITABLE_REGION_START_MARKER}\na",
        f"{EDITABLE_REGION_START_MARKER}\na{EDITABLE_REGION_END_MARKER}{EDITABLE_REGION_END_MARKER}",
        f"{EDITABLE_REGION_START_MARKER}\n{START_OF_FILE_MARKER}\na\n",
    ],
)
def test_a_reply_that_is_not_a_rewrite_is_refused(reply: str) -> None:
    fmt, prompt = zeta_prompt("a = 1\n", 0)
    with pytest.raises(ReplyError):
        fmt.parse(reply, prompt)


# -- rewrites into edits -----------------------------------------------------------------------------


def apply(text: str, edits: list) -> str:
    for edit in sorted(edits, key=lambda e: e.start_cp, reverse=True):
        text = text[: edit.start_cp] + edit.new_text + text[edit.end_cp :]
    return text


def test_a_rewrite_becomes_the_smallest_edits() -> None:
    old = "def f(a):\n    return a\n\nx = f(1)\ny = f(2)"
    new = "def f(a, b):\n    return a + b\n\nx = f(1)\ny = f(2, 3)"
    edits = region_edits(old, new, 100)
    assert [(e.start_cp - 100, e.end_cp - 100, e.new_text) for e in edits] == [
        (7, 7, ", b"),
        (len("def f(a):\n    return a"), len("def f(a):\n    return a"), " + b"),
        (len(old) - 1, len(old) - 1, ", 3"),
    ]
    assert region_edits("a = 1\n  b = 2", "a = 1\nb = 2", 0) == []  # whitespace only: left out


@given(st.text(alphabet="ab \n\t(", max_size=80), st.text(alphabet="ab \n\t(", max_size=80))
def test_edits_rebuild_the_rewrite_up_to_whitespace(old: str, new: str) -> None:
    edits = region_edits(old, new, 0)
    assert edits == sorted(edits, key=lambda e: e.start_cp)
    assert all(a.end_cp <= b.start_cp for a, b in zip(edits, edits[1:], strict=False))
    assert re.sub(r"\s+", "", apply(old, edits)) == re.sub(r"\s+", "", new)


def test_similarity_tells_a_rewrite_from_other_text() -> None:
    region = "a = 1\nb = 2\nc = 3\nd = 4\n"
    assert similarity(region, region.replace("b = 2", "b = 20")) > 0.7
    assert similarity(region, "import os\nimport sys\n") < 0.5


# -- the HTTP call ------------------------------------------------------------------------------------------


def a_prompt() -> object:
    return zeta_prompt("a = 1\n", 0)[1]


def config_for(server: ModelServer, **kwargs: object) -> ProviderConfig:
    return ProviderConfig(base_url=server.url, headers=(("Authorization", f"Bearer {SECRET}"),), **kwargs)  # type: ignore[arg-type]


def test_a_completion_request_is_openai_shaped(model_server: ModelServer) -> None:
    model_server.script(Reply("the answer"))
    completion = complete(config_for(model_server, model="zeta-q8"), a_prompt())  # type: ignore[arg-type]
    assert completion.text == "the answer" and completion.finish_reason == "stop"
    got = model_server.next_request()
    assert got.path == "/v1/completions"
    assert got.headers["Authorization"] == f"Bearer {SECRET}"
    assert got.body["model"] == "zeta-q8" and got.body["temperature"] == 0 and got.body["stream"] is False
    assert got.body["stop"] == [EDITABLE_REGION_END_MARKER] and got.body["max_tokens"] > 350
    assert got.body["prompt"].startswith("### Instruction:")


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        (Reply(status=500, body=b'{"error": "boom"}'), "HTTP 500"),
        (Reply(body=b"<html>not json</html>"), "not JSON"),
        (Reply(body=b'{"choices": []}'), "without choices"),
        (Reply(drop=True), "dropped the connection"),
    ],
)
def test_failures_are_provider_errors_that_name_no_secret(model_server: ModelServer, reply: Reply, error: str) -> None:
    model_server.script(reply)
    with pytest.raises(ProviderError, match=error) as caught:
        complete(config_for(model_server), a_prompt())  # type: ignore[arg-type]
    assert SECRET not in str(caught.value)


def test_nobody_listening_is_a_provider_error() -> None:
    server = ModelServer()
    server.close()  # the port is free again: connections are refused
    with pytest.raises(ProviderError, match="cannot reach"):
        complete(ProviderConfig(base_url=server.url), a_prompt())  # type: ignore[arg-type]


def test_a_slow_model_runs_out_of_budget_and_the_request_is_abandoned(model_server: ModelServer) -> None:
    held = Reply("late", hold=True)
    model_server.script(held)
    with pytest.raises(ProviderTimeout, match="within 50 ms"):
        complete(config_for(model_server, budget_ms=50), a_prompt())  # type: ignore[arg-type]
    assert model_server.next_disconnect() == "/v1/completions"  # the server saw the connection close
    assert not held.release.is_set()


def test_cancellation_abandons_the_request_at_once(model_server: ModelServer) -> None:
    held = Reply("late", hold=True)
    model_server.script(held)

    def cancelled() -> bool:
        return model_server.count > 0  # the request reached the server: cancel it now

    with pytest.raises(ProviderCancelled):
        complete(config_for(model_server, budget_ms=60_000), a_prompt(), cancelled)  # type: ignore[arg-type]
    assert model_server.next_disconnect() == "/v1/completions"


def test_llama_cpp_native_answers_are_read_too() -> None:
    assert parse_reply(b'{"content": "x", "stop_type": "limit"}').finish_reason == "length"
    assert parse_reply(b'{"choices": [{"text": "y", "finish_reason": "length"}]}').finish_reason == "length"


# -- health: backoff after repeated failures ------------------------------------------------------------------


def test_repeated_failures_back_off_and_a_new_config_clears_them(caplog: pytest.LogCaptureFixture) -> None:
    now = [1000.0]
    sent: list[int] = []

    def failing(config: ProviderConfig, prompt: object, cancelled: object) -> object:
        sent.append(1)
        raise ProviderError("http://m/v1/completions answered HTTP 500")

    config = ProviderConfig(base_url="http://m/v1", headers=(("Authorization", SECRET),))
    provider = ModelProvider(config, clock=lambda: now[0], transport=failing)  # type: ignore[arg-type]
    for _ in range(FAILURES_BEFORE_BACKOFF):
        assert provider.available(config)
        with pytest.raises(ProviderError):
            provider.ask(config, a_prompt(), lambda: False, lambda c: c)  # type: ignore[arg-type]
    assert not provider.available(config)
    assert sum("not asked for 5 s" in r.message for r in caplog.records) == 1
    now[0] += 5.0
    assert provider.available(config)
    with pytest.raises(ProviderError):
        provider.ask(config, a_prompt(), lambda: False, lambda c: c)  # type: ignore[arg-type]
    assert not provider.available(config)  # failing still: the pause doubles
    now[0] += 5.0
    assert not provider.available(config)
    now[0] += 5.0
    assert provider.available(config)
    provider.configure(config.with_endpoint("openai", "http://other/v1", None))
    assert provider.available(provider.config)
    assert len(sent) == FAILURES_BEFORE_BACKOFF + 1
    assert all(SECRET not in r.getMessage() for r in caplog.records)
