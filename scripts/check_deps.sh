#!/usr/bin/env bash
# The project against dependencies other than the locked ones, in a virtual environment of its
# own (.venv-deps), so that a dependency's release that breaks it shows here before it reaches a
# user, and never turns the locked CI (.ci/run) red:
#   scripts/check_deps.sh           the newest releases pyproject.toml allows: lint, types, the
#                                   docs site and every test, as .ci/run runs them
#   scripts/check_deps.sh lowest    the lowest release of each direct dependency pyproject.toml
#                                   allows (needs uv): every test, so the lower bounds are true
# Extra arguments go to pytest (for example -x, or a test path). What to do when it fails:
# docs/architecture.md, Development.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-newest}
[[ $# -gt 0 ]] && shift
venv=.venv-deps
rm -rf "$venv"
python3 -m venv "$venv"
case "$mode" in
    newest)
        "$venv/bin/python" -m pip install --quiet --upgrade pip
        "$venv/bin/python" -m pip install --quiet --upgrade --upgrade-strategy eager -e ".[test]"
        "$venv/bin/ruff" check .
        "$venv/bin/mypy"
        "$venv/bin/mkdocs" build --strict --quiet --site-dir "$venv/site"
        ;;
    lowest)
        lowest="$venv/lowest.txt"
        build=$(python3 -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))')
        echo "$build" | "${UV:-uv}" pip compile - pyproject.toml --quiet --all-extras \
            --resolution lowest-direct --python-version 3.11 --no-header -o "$lowest"
        "$venv/bin/python" -m pip install --quiet -r "$lowest"
        "$venv/bin/python" -m pip install --quiet --no-deps --no-build-isolation -e .
        ;;
    *)
        echo "usage: scripts/check_deps.sh [newest|lowest] [pytest arguments]" >&2
        exit 2
        ;;
esac
"$venv/bin/python" -m pip list --format freeze > "$venv/versions.txt"
echo "versions installed: $venv/versions.txt"
"$venv/bin/python" -m pytest -q "$@"
