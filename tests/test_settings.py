"""User settings: kinds to offer, the confidence a suggestion needs, languages to watch.

Read from JSON (the LSP bridge's initializationOptions/didChangeConfiguration)
and from flags (`nextedit acp --no-jump …`); applied to the session's kinds
and engine. The end-to-end tests run a real `nextedit acp` with the flags.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from nextedit.session import Session
from nextedit.settings import DEFAULT_MIN_CONFIDENCE, Settings, add_flags, settings_section
from nextedit.suggest.model import SuggestionKinds
from nextedit.text import Position, PositionEncoding, Range, TextChange

ALL = SuggestionKinds(jump=True, rename=True, search_and_replace=True)


def test_defaults_offer_what_the_client_supports() -> None:
    settings = Settings()
    assert settings.kinds(ALL) == ALL
    assert settings.kinds(SuggestionKinds()) == SuggestionKinds()
    assert settings.min_confidence == DEFAULT_MIN_CONFIDENCE and settings.languages is None


def test_read_lays_values_over_and_names_what_it_cannot_read() -> None:
    settings, problems = Settings().read(
        {"kinds": {"jump": False}, "minConfidence": 0.7, "languages": ["python", "rust"]}
    )
    assert problems == []
    assert settings.kinds(ALL) == SuggestionKinds(jump=False, rename=True, search_and_replace=True)
    assert settings.min_confidence == 0.7 and settings.languages == frozenset({"python", "rust"})
    # absent keys keep their value; null languages means every language
    again, _ = settings.read({"kinds": {"searchAndReplace": False}, "languages": None})
    assert again.kinds(ALL) == SuggestionKinds(jump=False, rename=True, search_and_replace=False)
    assert again.min_confidence == 0.7 and again.languages is None

    bad, problems = Settings().read(
        {"kinds": {"jump": "no", "rename": False}, "minConfidence": 7, "languages": "python"}, "initializationOptions"
    )
    assert bad == Settings()
    assert problems == [
        "initializationOptions.kinds.jump must be true or false",
        "initializationOptions.kinds.rename is not a kind that can be turned off (jump, searchAndReplace)",
        "initializationOptions.minConfidence must be a number from 0 to 1",
        'initializationOptions.languages must be a list of languageIds like ["python", "rust"], or null',
    ]
    assert Settings().read([1])[1] == ["settings must be an object"]
    assert Settings().read({"minConfidence": True})[1] == ["settings.minConfidence must be a number from 0 to 1"]


def test_our_section_is_found_where_editors_put_it() -> None:
    assert settings_section({"nextedit": {"minConfidence": 0.6}, "pylsp": {}}) == {"minConfidence": 0.6}
    assert settings_section({"minConfidence": 0.6}) == {"minConfidence": 0.6}  # Helix's `config`
    assert settings_section({"pylsp": {}}) is None and settings_section(None) is None


def parse(*argv: str) -> Settings:
    parser = argparse.ArgumentParser()
    add_flags(parser)
    return Settings.from_flags(parser.parse_args(argv))


def test_flags() -> None:
    assert parse() == Settings()
    settings = parse("--no-jump", "--no-search-and-replace", "--min-confidence", "0", "--languages", "python, rust")
    assert settings == Settings(
        jump=False, search_and_replace=False, min_confidence=0.0, languages=frozenset({"python", "rust"})
    )


SOURCE = "def area(width, height):\n    result = width * height\n    return result\n"


def renamed_session(settings: Settings, language_id: str = "python") -> list[Any]:
    session = Session("s", PositionEncoding.UTF16, settings.kinds(ALL))
    settings.configure(session.engine)
    session.did_open("file:///a.py", language_id, 1, SOURCE)
    session.did_change("file:///a.py", 2, [TextChange(Range(Position(1, 4), Position(1, 10)), "total")])
    return session.suggest("file:///a.py", 2, Position(1, 9))


def test_languages_and_confidence_reach_the_engine() -> None:
    assert renamed_session(Settings())
    assert renamed_session(Settings(languages=frozenset({"python"})))
    # a languageId the editor made up still matches by the grammar it selects
    assert renamed_session(Settings(languages=frozenset({"python"})), language_id="python3")
    assert renamed_session(Settings(languages=frozenset({"rust"}))) == []
    assert renamed_session(Settings(min_confidence=1.0)) == []


# -- `nextedit acp` with flags, over stdio --------------------------------------------------

FAR = "class T:\n    def test_a(self):\n        self.assertEquals(1, 1)\n" + "        pass\n" * 60
FAR += "        self.assertEquals(2, 2)\n" + "        pass\n" * 60 + "        self.assertEquals(3, 3)\n"
FAR += "        pass\n" * 60 + "        self.assertEquals(4, 4)\n"


def far_repeat(acp: Any) -> list[dict[str, Any]]:
    """A repeated edit (made twice, so the ranker is sure of it) whose other
    sites are far below the cursor: with `jump`, a jump comes first."""
    acp.initialize(["utf-16"], jump=True, rename=True, search_and_replace=True)
    session = acp.start_session()
    uri = "file:///t.py"
    acp.notify(
        "document/didOpen", {"sessionId": session, "uri": uri, "languageId": "python", "version": 1, "text": FAR}
    )
    for version, line in ((2, 2), (3, 63)):  # ``assertEquals`` -> ``assertEqual`` at the first two
        change = {
            "range": {"start": {"line": line, "character": 24}, "end": {"line": line, "character": 25}},
            "text": "",
        }
        acp.notify(
            "document/didChange", {"sessionId": session, "uri": uri, "version": version, "contentChanges": [change]}
        )
    answer = acp.call(
        "nes/suggest",
        {
            "sessionId": session,
            "uri": uri,
            "version": 3,
            "position": {"line": 63, "character": 24},
            "triggerKind": "manual",
        },
    )
    return answer["result"]["suggestions"]


def test_acp_offers_a_jump_by_default_and_none_with_no_jump(acp_factory: Any) -> None:
    kinds = [s["kind"] for s in far_repeat(acp_factory())]
    assert kinds and kinds[0] == "jump", kinds
    kinds = [s["kind"] for s in far_repeat(acp_factory("--no-jump"))]
    assert kinds and "jump" not in kinds, kinds


def test_acp_languages_and_confidence_flags(acp_factory: Any) -> None:
    assert far_repeat(acp_factory("--languages", "python,rust"))
    assert far_repeat(acp_factory("--languages", "rust")) == []
    assert far_repeat(acp_factory("--min-confidence", "1")) == []


@pytest.mark.parametrize("value", ["1.5", "high"])
def test_a_bad_flag_value_is_one_line_and_exit_2(tmp_path: Path, value: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "nextedit", "acp", "--state-dir", str(tmp_path), "--min-confidence", value],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert done.returncode == 2
    assert "--min-confidence" in done.stderr and "Traceback" not in done.stderr
