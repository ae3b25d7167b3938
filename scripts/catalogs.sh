#!/usr/bin/env bash
# Refresh the message catalogs: extract every marked message from bot/ into the template, merge
# it into each language's .po (new messages appear untranslated, changed ones marked fuzzy), and
# compile the .mo files the bot reads. Run from the project root with Babel installed
# (pip install -e ".[test]"). `scripts/catalogs.sh init xx` starts a new language.
set -euo pipefail
cd "$(dirname "$0")/.."
PYBABEL=${PYBABEL:-.venv/bin/pybabel}
POT=bot/i18n/tictactoe.pot
DIR=bot/i18n/locales
"$PYBABEL" -q extract -F babel.cfg -k N_ -k NP_:1,2 -k _l -k _t:2 --no-default-keywords \
    --no-location --sort-output --project=tictactoe --version=0.1 \
    --copyright-holder=tictactoe -o "$POT" .
if [[ "${1:-}" == "init" ]]; then
    "$PYBABEL" init -i "$POT" -d "$DIR" -D tictactoe -l "$2"
fi
if compgen -G "$DIR/*/LC_MESSAGES/tictactoe.po" >/dev/null; then
    "$PYBABEL" -q update -i "$POT" -d "$DIR" -D tictactoe --no-wrap --ignore-obsolete
    "$PYBABEL" compile -d "$DIR" -D tictactoe --statistics 2>&1 | grep -v "^compiling"
fi
