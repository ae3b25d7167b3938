#!/usr/bin/env bash
# Write the locks in requirements/: every dependency's exact version with its hashes, for
# CPython 3.11 and later on any platform, resolved from pyproject.toml (and its build backend, so
# that the project itself is built with a locked setuptools). One lock a use, the same versions in
# all three (the smaller ones are constrained by the test lock):
#   requirements/test.txt        every extra: the tests, the docs site, the playground, PostgreSQL
#   requirements/playground.txt  the bot and its playground (the README's first command)
#   requirements/bot.txt         the bot with PostgreSQL (the container image)
# Needs uv (pip install uv). `scripts/lock.sh --upgrade` moves every dependency to the newest
# release that pyproject.toml allows; without it, versions already locked are kept and only new or
# changed requirements are resolved. docs/architecture.md, Development, says when to run it.
set -euo pipefail
cd "$(dirname "$0")/.."
UV=${UV:-uv}
build=$(python3 -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))')
lock() {
    local out=$1
    shift
    echo "$build" | "$UV" pip compile - pyproject.toml --quiet --generate-hashes --universal \
        --python-version 3.11 --custom-compile-command "scripts/lock.sh" -o "$out" "$@"
}
lock requirements/test.txt --all-extras "$@"
lock requirements/playground.txt --extra playground -c requirements/test.txt "$@"
lock requirements/bot.txt --extra postgres -c requirements/test.txt "$@"
