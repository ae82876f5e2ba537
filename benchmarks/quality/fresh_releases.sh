#!/usr/bin/env bash
# Trace sets from sixteen repositories in no folder of ours, rebuilt from their
# registries' releases (release_history.py), mined, and replayed by the bench.
# Needs the network (PyPI, npm) and git. The figures of 2026-12-05 are in
# benchmarks/results/quality-fresh-releases.md (and -notes.md).
#
#   OUT=/tmp/fresh bash benchmarks/quality/fresh_releases.sh [--record]
set -euo pipefail
OUT=${OUT:-/tmp/fresh}
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-python}
mkdir -p "$OUT/repos" "$OUT/traces"

build() {  # registry package license versions [extra release_history.py flags]
    local registry=$1 package=$2 license=$3 versions=$4
    shift 4
    rm -rf "$OUT/repos/$package"
    "$python" "$here/release_history.py" --registry "$registry" --package "$package" \
        --versions "$versions" --out "$OUT/repos/$package" "$@"
    "$python" -m nextedit traces mine "$OUT/repos/$package" -o "$OUT/traces/$package.jsonl.gz" \
        --max-sessions 200 --license "$license" --no-progress
}

build pypi attrs MIT 23.1.0,23.2.0,24.1.0,24.2.0,24.3.0,25.1.0,25.2.0,25.3.0,25.4.0,26.1.0
build pypi rich MIT 13.9.2,13.9.3,13.9.4,14.0.0,14.1.0,14.2.0,14.3.0,14.3.1,14.3.2,14.3.3,14.3.4,15.0.0
# orjson's sdist vendors its crates under include/
build pypi orjson Apache-2.0 3.11.0,3.11.1,3.11.2,3.11.3,3.11.4,3.11.5,3.11.6,3.11.7,3.11.8,3.11.9,3.12.0,3.13.0 --skip include
build npm express MIT 4.19.2,4.20.0,4.21.0,4.21.1,4.21.2,5.0.0,5.0.1,5.1.0,5.2.0,5.2.1,5.3.0
build npm commander MIT 12.0.0,12.1.0,13.0.0,13.1.0,14.0.0,14.0.1,14.0.2,14.0.3,15.0.0,15.1.0
# rxjs publishes its TypeScript sources (src/) beside the built dist/
build npm rxjs Apache-2.0 7.5.0,7.5.1,7.5.2,7.5.3,7.5.4,7.5.5,7.5.6,7.5.7,7.6.0,7.7.0,7.8.0,7.8.1,7.8.2
# ujson's sdist: C sources, its vendored double-conversion under deps/
build pypi ujson BSD-3-Clause 5.5.0,5.6.0,5.7.0,5.8.0,5.9.0,5.10.0,5.11.0,5.12.0,5.12.1,5.13.0,6.0.0,6.1.0 --skip deps
build pypi werkzeug BSD-3-Clause 3.0.5,3.0.6,3.1.0,3.1.1,3.1.2,3.1.3,3.1.4,3.1.5,3.1.6,3.1.7,3.1.8,3.1.9
build pypi psutil BSD-3-Clause 5.9.8,6.0.0,6.1.0,6.1.1,7.0.0,7.1.0,7.1.1,7.1.2,7.1.3,7.2.0,7.2.1,7.2.2
# pydantic-core's sdist: its Rust sources and Python tests
build pypi pydantic-core MIT 2.46.2,2.46.3,2.46.4,2.46.5,2.47.0,2.48.0,2.49.0,2.50.0,2.50.1,2.50.2,2.50.4,2.50.5
build npm eslint MIT 10.7.0,10.8.0,10.8.1,10.9.0,10.9.1,10.10.0,10.11.0,10.12.0,10.13.0,10.14.0,10.15.0,10.16.0
# immer publishes its TypeScript sources (src/) beside dist/
build npm immer MIT 11.1.16,11.1.17,11.1.18,11.1.19,11.1.20,11.1.21,11.2.3,11.2.7,11.2.9,11.2.10,11.2.13,11.2.14
build pypi jinja2 BSD-3-Clause 3.0.0,3.0.1,3.0.2,3.0.3,3.1.0,3.1.1,3.1.2,3.1.3,3.1.4,3.1.5,3.1.6
build pypi black MIT 24.10.0,25.1.0,25.9.0,25.11.0,25.12.0,26.1.0,26.3.0,26.3.1,26.5.0,26.5.1,26.10.0,26.10.1
# mobx and ajv publish their TypeScript sources beside dist/
build npm mobx MIT 6.15.3,6.15.4,6.16.0,6.16.1,7.0.0,7.0.1,7.0.2,7.0.3,7.0.4,7.0.5,7.0.6,7.1.3 --skip dist
build npm ajv MIT 8.12.0,8.13.0,8.14.0,8.15.0,8.16.0,8.17.1,8.18.0,8.20.0 --skip dist

"$python" -m nextedit bench "$OUT"/traces/*.jsonl.gz --jobs 2 --name quality-fresh-releases "$@"
