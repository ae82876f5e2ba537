"""A tiny scripted NES agent over stdio, for testing the replayer without the engine.

``python tests/fake_agent.py [--script FILE] [--crash-after N] [--log FILE]`` (run by
path; it imports only the standard library).

It speaks newline-delimited JSON-RPC 2.0: ``initialize`` (chooses the client's
first position encoding), ``nes/start``, ``nes/close``, ``nes/suggest``; it
ignores notifications but logs every message it reads to ``--log``.  Answers
to ``nes/suggest`` come, in order, from ``--script`` (a JSON list whose items
are suggestion lists; ``"$ID"`` ids are replaced by fresh ones); once the
script runs out, or without one, it answers ``{"suggestions": []}``.
``--crash-after N`` exits abruptly on the N-th ``nes/suggest``.
``--busy-on-change V:MS`` spends MS ms of its own CPU time on the
``document/didChange`` to version V (a busy loop), for the bench's agent-CPU
accounting.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--script")
    ap.add_argument("--crash-after", type=int, default=0)
    ap.add_argument("--log")
    ap.add_argument("--busy-on-change", default="")
    args = ap.parse_args(argv)
    busy_version, _, busy_ms = args.busy_on_change.partition(":")
    script = []
    if args.script:
        with open(args.script, encoding="utf-8") as f:
            script = json.load(f)
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    ids = itertools.count(1)
    sessions = itertools.count(1)
    suggests = 0
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            out.write(
                json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}}) + "\n"
            )
            out.flush()
            continue
        if log:
            log.write(json.dumps(msg) + "\n")
            log.flush()
        method = msg.get("method")
        if "id" not in msg:
            version = (msg.get("params") or {}).get("version")
            if method == "document/didChange" and busy_version and str(version) == busy_version:
                until = time.thread_time() + float(busy_ms) / 1000.0
                while time.thread_time() < until:
                    pass
            continue
        params = msg.get("params") or {}
        if method == "initialize":
            encs = (params.get("clientCapabilities") or {}).get("positionEncodings") or ["utf-16"]
            result = {
                "protocolVersion": 1,
                "agentInfo": {"name": "fake", "version": "0"},
                "agentCapabilities": {"positionEncoding": encs[0], "nes": {}},
            }
        elif method == "nes/start":
            result = {"sessionId": f"fake-{next(sessions)}"}
        elif method == "nes/close":
            result = {}
        elif method == "nes/suggest":
            suggests += 1
            if args.crash_after and suggests >= args.crash_after:
                sys.exit(3)
            items = script.pop(0) if script else []
            items = json.loads(json.dumps(items).replace('"$ID"', '"__ID__"'))
            for it in items:
                if it.get("id") == "__ID__":
                    it["id"] = f"s-{next(ids)}"
                it.setdefault("uri", params.get("uri"))
            result = {"suggestions": items}
        else:
            out.write(
                json.dumps(
                    {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": f"unknown {method}"}}
                )
                + "\n"
            )
            out.flush()
            continue
        out.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
