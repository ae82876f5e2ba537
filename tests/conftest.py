"""Shared fixtures: a real `nextedit` subprocess (:mod:`tests.helpers.rpc`), the ACP
schema, a scripted model server, and the two lanes of the suite.

The fixtures assert at teardown that every request was answered exactly once
and that the process exited 0 on EOF. Tests marked ``e2e`` (see
:func:`pytest_collection_modifyitems`) run only in the full lane; the fast lane
is ``python -m pytest -m "not e2e"``.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Engines run strict in the tests, in this process and in every agent it starts:
# an exception in a suggester fails the test instead of becoming silence.
os.environ["NEXTEDIT_STRICT"] = "1"

from tests.helpers.rpc import SCHEMA_PATH, TIMEOUT, RpcProcess, SchemaChecker

# -- the two lanes: `pytest -m "not e2e"` (seconds) and everything ----------------------

# Modules whose every test spawns a process: the agent, the LSP bridge, an
# editor (Neovim, Emacs) or the CLI.
E2E_MODULES = frozenset(
    {
        "test_acp_cancellation",
        "test_acp_protocol",
        "test_acp_rename",
        "test_bench_cli",
        "test_lsp",
        "test_lsp_emacs",
        "test_lsp_nvim",
        "test_lsp_robustness",
        "test_miner",
        "test_provider_acp",
        "test_provider_bench",
        "test_provider_lsp",
    }
)
# Fixtures that start a process: a test using one is end-to-end wherever it lives.
E2E_FIXTURES = frozenset({"acp", "acp_factory", "lsp"})
# Tests in modules the fixtures above do not cover; prefer `@pytest.mark.e2e` in the module.
E2E_TESTS = frozenset({"tests/test_settings.py::test_a_bad_flag_value_is_one_line_and_exit_2"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every end-to-end test ``e2e`` (the marker is registered in pyproject.toml)."""
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        if (
            Path(module).stem in E2E_MODULES
            or E2E_FIXTURES.intersection(getattr(item, "fixturenames", ()))
            or item.nodeid.split("[", 1)[0] in E2E_TESTS
        ):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(autouse=True)
def _fast_lane_spawns_nothing(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test not marked ``e2e`` that starts a process fails, saying so: the
    fast lane stays fast and the marking stays true."""
    if request.node.get_closest_marker("e2e") is not None:
        return

    def refuse(self: subprocess.Popen, args: Any, *rest: Any, **kwargs: Any) -> None:
        raise AssertionError(f"{request.node.nodeid} starts a process ({args!r:.120}): mark it e2e")

    monkeypatch.setattr(subprocess.Popen, "_execute_child", refuse)


@pytest.fixture
def restored_collector() -> Iterator[None]:
    """The collector as the test found it, after a test that settles the
    heap as the agents do (``nextedit.heap.settle``: frozen, thresholds)."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.fixture(scope="session")
def schema_checker() -> SchemaChecker | None:
    if not SCHEMA_PATH.exists():
        return None
    return SchemaChecker(SCHEMA_PATH)


@pytest.fixture
def state_dir(tmp_path: Path) -> Path:
    path = tmp_path / "state"
    path.mkdir()
    return path


def acp_argv(state_dir: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "nextedit", "acp", "--state-dir", str(state_dir), *extra]


@pytest.fixture
def acp_factory(state_dir: Path, schema_checker: SchemaChecker | None) -> Iterator[Any]:
    """Start any number of `nextedit acp` processes; each is checked at teardown."""
    started: list[RpcProcess] = []

    def start(*extra: str, check_exit: bool = True) -> RpcProcess:
        process = RpcProcess(acp_argv(state_dir, *extra), checker=schema_checker)
        process.check_exit = check_exit
        started.append(process)
        return process

    yield start
    for process in started:
        check_exit = process.check_exit
        if process.proc.poll() is None:
            rc = process.close()
            if check_exit:
                assert rc == 0, f"agent exited {rc} on EOF; stderr:\n{process.stderr()}"
        while process._inbox.get(timeout=TIMEOUT) is not None:  # drain until stdout closes
            pass
        assert not process.problems, "\n".join(process.problems)
        if check_exit:
            assert not process.unanswered(), f"requests never answered: {process.unanswered()}"


@pytest.fixture
def acp(acp_factory: Any) -> RpcProcess:
    """One `nextedit acp` process with a private state dir."""
    return acp_factory()


@pytest.fixture
def model_server() -> Iterator[Any]:
    """A scripted OpenAI-compatible completions server on 127.0.0.1 (:mod:`tests.model_server`)."""
    from tests.model_server import ModelServer

    server = ModelServer()
    yield server
    server.close()
