#!/usr/bin/env bash
# The Activity's built page (bot/activity/static/, which the package carries) in step with its
# sources (activity/): the locked packages (npm ci), the type check, then the build into a
# temporary folder, compared byte for byte with the committed files. Fails saying what to run.
set -euo pipefail
cd "$(dirname "$0")/.."
built=$(mktemp -d)
trap 'rm -rf "$built"' EXIT
(
    cd activity
    npm ci --no-audit --no-fund --loglevel=error
    npm run --silent typecheck
    npm run --silent build -- "$built"
)
if ! diff -rq "$built" bot/activity/static | sed "s|$built|(built)|"; then
    echo "bot/activity/static/ does not match activity/: run" \
        "'(cd activity && npm ci && npm run build)' and commit bot/activity/static/" >&2
    exit 1
fi
echo "bot/activity/static/ matches activity/"
