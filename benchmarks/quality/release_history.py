"""A git history made of a package's released versions, for mining traces from code nobody tuned for.

The shared trace sets come from twelve repositories' commits, and the
ranker is fitted on them. To see how the engine does on repositories in no
folder of ours, this script rebuilds a repository from a registry alone:
each listed version's source archive (PyPI's sdist, npm's tarball) becomes
one commit, oldest first, in a fresh git repository. ``nextedit traces
mine`` then mines it like any other history (one session per file changed
between releases, at most ``--max-hunks`` hunks).

A release diff gathers many commits' changes, so its sessions are longer
and more mixed than a commit's; figures from them are a check on how the
engine carries over, not a substitute for the shared sets.

Usage::

    python benchmarks/quality/release_history.py --registry pypi --package attrs \\
        --versions 24.1.0,24.2.0,24.3.0 --out /tmp/fresh/attrs
    nextedit traces mine /tmp/fresh/attrs -o attrs.jsonl.gz --license MIT

Standard library only; needs the network (the registries) and ``git``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path, PurePosixPath

# what is kept of an archive: source files, not generated or vendored ones
SOURCE_SUFFIXES = frozenset(
    {".py", ".pyi", ".rs", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx", ".go", ".java"}
    | {".c", ".h", ".cc", ".cpp", ".hpp", ".rb"}
)
SKIPPED_DIRS = frozenset({"dist", "build", "node_modules", "vendor", "vendored", "third_party", "__pycache__"})
_TIMEOUT = 60


def _fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=_TIMEOUT) as response:  # noqa: S310 (registry URLs)
        return response.read()


def archive_url(registry: str, package: str, version: str) -> str:
    """Where the source archive of ``package`` ``version`` lies on the registry."""
    if registry == "pypi":
        index = f"https://pypi.org/pypi/{package}/json"
        meta = json.loads(_fetch(index))
        for f in meta["releases"].get(version, ()):
            if f["packagetype"] == "sdist":
                return urllib.parse.urljoin(index, f["url"])  # a mirror may give it relative
        raise SystemExit(f"{package} {version}: no sdist on PyPI")
    meta = json.loads(_fetch(f"https://registry.npmjs.org/{package}/{version}"))
    return meta["dist"]["tarball"]


def _members(data: bytes, url: str) -> list[tuple[str, bytes]]:
    """``(path, bytes)`` of every regular file in a .tar.gz/.tgz or .zip archive."""
    out: list[tuple[str, bytes]] = []
    if url.endswith(".zip"):
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            for info in z.infolist():
                if not info.is_dir():
                    out.append((info.filename, z.read(info)))
        return out
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as t:
        for m in t.getmembers():
            if m.isfile():
                f = t.extractfile(m)
                if f is not None:
                    out.append((m.name, f.read()))
    return out


def source_files(members: list[tuple[str, bytes]], skip: frozenset[str] = SKIPPED_DIRS) -> dict[str, bytes]:
    """The archive's source files by path, its top directory (``pkg-1.0/``, ``package/``) stripped,
    none under a directory named in ``skip``."""
    out: dict[str, bytes] = {}
    for name, data in members:
        parts = PurePosixPath(name).parts[1:]
        if not parts or any(p in skip or p.startswith(".") for p in parts[:-1]):
            continue
        path = PurePosixPath(*parts)
        if path.suffix not in SOURCE_SUFFIXES or path.name.endswith(".min.js"):
            continue
        out[str(path)] = data
    return out


def _git(repo: Path, *args: str, date: str = "") -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="release", GIT_AUTHOR_EMAIL="release@localhost")
    env.update(GIT_COMMITTER_NAME="release", GIT_COMMITTER_EMAIL="release@localhost")
    if date:
        env.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, stdout=subprocess.DEVNULL)


def build(registry: str, package: str, versions: list[str], out: Path, skip: frozenset[str] = SKIPPED_DIRS) -> int:
    """Commit each version's sources into a new repository at ``out`` (which
    must not exist, or be empty); the number of commits."""
    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"{out} exists and is not empty: remove it first")
    out.mkdir(parents=True, exist_ok=True)
    _git(out, "init", "-q")
    for i, version in enumerate(versions):
        url = archive_url(registry, package, version)
        files = source_files(_members(_fetch(url), url), skip)
        if not files:
            raise SystemExit(f"{package} {version}: no source files in {url}")
        for child in out.iterdir():
            if child.name == ".git":
                continue
            if child.is_dir():
                shutil.rmtree(child)
            else:
                child.unlink()
        for path, data in files.items():
            target = out / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        _git(out, "add", "-A")
        # fixed dates, a day apart from 2000-01-01: the same versions give the same commits
        _git(out, "commit", "-q", "--allow-empty", "-m", f"release {version}", date=f"@{946684800 + i * 86400} +0000")
        print(f"{package} {version}: {len(files)} source files", file=sys.stderr)
    return len(versions)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--registry", choices=("pypi", "npm"), required=True)
    ap.add_argument("--package", required=True)
    ap.add_argument("--versions", required=True, help="comma-separated, oldest first")
    ap.add_argument("--out", type=Path, required=True, help="the repository to create (a new or empty folder)")
    ap.add_argument(
        "--skip",
        action="append",
        default=[],
        metavar="DIR",
        help="also leave out directories so named (vendored crates…)",
    )
    args = ap.parse_args(argv)
    versions = [v.strip() for v in args.versions.split(",") if v.strip()]
    if len(versions) < 2:
        ap.error("give at least two versions")
    build(args.registry, args.package, versions, args.out, SKIPPED_DIRS | frozenset(args.skip))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
