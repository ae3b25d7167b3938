#!/usr/bin/env bash
# Build the project's image from Dockerfile and run compose.yaml for real: PostgreSQL and the two
# shard processes against a local Discord on 127.0.0.1; a game on each shard, one shard killed
# with SIGKILL and started again, /healthz and /metrics of both; then everything taken down.
# Needs podman (with podman-compose) or Docker (with compose); where no image registry can be
# reached, the base images are made from Debian's packages with mmdebstrap. One line per step.
#
#   bash scripts/check_container.sh            # builds what is missing, reuses what is there
#   FRESH=1 bash scripts/check_container.sh    # rebuilds the base images too
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TAG=check
IMAGE=localhost/tictactoe:$TAG
PY_BASE=localhost/tictactoe-python-base:$TAG
PY_BUILD_BASE=localhost/tictactoe-python-build:$TAG
PG_BASE=localhost/tictactoe-postgres-base:$TAG
PG_IMAGE=localhost/tictactoe-postgres:$TAG
SUITE=${DEBIAN_SUITE:-bookworm}
started=$(date +%s)
say() { echo "check: $*"; }
fail() { echo "check: FAILED: $*" >&2; exit 1; }

if command -v podman >/dev/null 2>&1; then
    ENGINE=podman
elif command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    ENGINE=docker
else
    fail "neither podman nor a running Docker was found: apt-get install podman mmdebstrap (or install Docker), then run this again"
fi
say "using $ENGINE ($($ENGINE --version))"

if [[ $ENGINE == podman ]]; then
    # Inside a VM or container without overlay or systemd: the vfs storage driver, runc, and
    # no default ulimits (raising them is refused there). Set only where nothing is configured.
    work=$(mktemp -d)
    if [[ -z ${CONTAINERS_STORAGE_CONF:-} && ! -f /etc/containers/storage.conf ]]; then
        printf '[storage]\ndriver = "vfs"\nrunroot = "/run/containers/storage"\ngraphroot = "/var/lib/containers/storage"\n' > "$work/storage.conf"
        export CONTAINERS_STORAGE_CONF=$work/storage.conf
    fi
    if [[ -z ${CONTAINERS_CONF:-} ]]; then
        printf '[containers]\ndefault_ulimits = []\n[engine]\nruntime = "runc"\n' > "$work/containers.conf"
        export CONTAINERS_CONF=$work/containers.conf
    fi
    BUILD=(podman build --format docker --network host)
    [[ -f /etc/ssl/certs/ca-certificates.crt ]] && BUILD+=(-v /etc/ssl/certs:/host-certs:ro)
    RUN=(podman run --rm --no-healthcheck --network none)
else
    BUILD=(docker build --network host)
    RUN=(docker run --rm --network none)
fi
log=$(mktemp)
has_image() { $ENGINE image inspect "$1" >/dev/null 2>&1; }

# The base images: the public ones when a registry answers, else made from Debian's packages.
PY_FROM=python:3.11-slim
PY_BUILD_FROM=python:3.11
PG_FROM=postgres:15
if timeout 60 $ENGINE pull -q docker.io/library/python:3.11-slim >/dev/null 2>&1 \
    && timeout 60 $ENGINE pull -q docker.io/library/python:3.11 >/dev/null 2>&1 \
    && timeout 60 $ENGINE pull -q docker.io/library/postgres:15 >/dev/null 2>&1; then
    say "base images pulled from a registry"
    PG_IMAGE=docker.io/library/postgres:15
else
    command -v mmdebstrap >/dev/null 2>&1 || fail "no image registry answers and mmdebstrap is missing: apt-get install mmdebstrap"
    PY_FROM=$PY_BASE
    if [[ -n ${FRESH:-} ]] || ! has_image "$PY_BASE"; then
        say "no registry: making $PY_BASE from Debian's packages (python3, python3-venv, the colour emoji font)"
        tar=$(mktemp --suffix=.tar)
        mmdebstrap --quiet --variant=minbase --include=python3,python3-venv,ca-certificates,fonts-noto-color-emoji \
            "$SUITE" "$tar" || fail "mmdebstrap could not make the Python base image"
        $ENGINE import -q --change 'CMD ["/bin/bash"]' "$tar" "$PY_BASE" >/dev/null
        rm -f "$tar"
    else
        say "reusing $PY_BASE"
    fi
    PY_BUILD_FROM=$PY_BUILD_BASE
    if [[ -n ${FRESH:-} ]] || ! has_image "$PY_BUILD_BASE"; then
        say "no registry: making $PY_BUILD_BASE from Debian's packages (the base, gcc, python3-dev)"
        tar=$(mktemp --suffix=.tar)
        mmdebstrap --quiet --variant=minbase \
            --include=python3,python3-venv,python3-dev,gcc,libc6-dev,ca-certificates \
            "$SUITE" "$tar" || fail "mmdebstrap could not make the Python build image"
        $ENGINE import -q --change 'CMD ["/bin/bash"]' "$tar" "$PY_BUILD_BASE" >/dev/null
        rm -f "$tar"
    else
        say "reusing $PY_BUILD_BASE"
    fi
    if [[ -n ${FRESH:-} ]] || ! has_image "$PG_IMAGE"; then
        say "no registry: making $PG_IMAGE from Debian's postgresql"
        tar=$(mktemp --suffix=.tar)
        mmdebstrap --quiet --variant=minbase --include=postgresql "$SUITE" "$tar" \
            || fail "mmdebstrap could not make the PostgreSQL base image"
        $ENGINE import -q "$tar" "$PG_BASE" >/dev/null
        rm -f "$tar"
        "${BUILD[@]}" -f scripts/container/postgres.Containerfile --build-arg "BASE=$PG_BASE" \
            -t "$PG_IMAGE" scripts/container >"$log" 2>&1 \
            || fail "the PostgreSQL image did not build: $(tail -n 20 "$log")"
    else
        say "reusing $PG_IMAGE"
    fi
fi

# The project's image, with pip's index as this machine's pip has it.
index=$(python3 -m pip config get global.index-url 2>/dev/null || true)
extra=$(python3 -m pip config get global.extra-index-url 2>/dev/null || true)
args=(--build-arg "BASE=$PY_FROM" --build-arg "BUILD_BASE=$PY_BUILD_FROM")
[[ -n ${PIP_INDEX_URL:-$index} ]] && args+=(--build-arg "PIP_INDEX_URL=${PIP_INDEX_URL:-$index}")
[[ -n ${PIP_EXTRA_INDEX_URL:-} ]] && args+=(--build-arg "PIP_EXTRA_INDEX_URL=$PIP_EXTRA_INDEX_URL")
[[ -z ${PIP_EXTRA_INDEX_URL:-} && $extra == http* ]] && args+=(--build-arg "PIP_EXTRA_INDEX_URL=$extra")
say "building $IMAGE from Dockerfile (base $PY_FROM)"
build_start=$(date +%s)
"${BUILD[@]}" "${args[@]}" -t "$IMAGE" . >"$log" 2>&1 \
    || fail "the image did not build; the build's last lines: $(tail -n 20 "$log")"
say "built in $(( $(date +%s) - build_start )) s; size $($ENGINE image inspect "$IMAGE" --format '{{.Size}}' | awk '{printf "%.0f MB", $1/1e6}')"

# The image itself: not root, no token, one clear line without DISCORD_TOKEN.
user=$("${RUN[@]}" "$IMAGE" id -u)
[[ $user != 0 ]] || fail "the image runs as root"
"${RUN[@]}" "$IMAGE" sh -c 'env | grep -q "^DISCORD_TOKEN=" && exit 1 || exit 0' \
    || fail "the image holds a DISCORD_TOKEN"
set +e
out=$("${RUN[@]}" "$IMAGE" 2>&1)
code=$?
set -e
[[ $code == 2 && $(printf '%s\n' "$out" | wc -l) == 1 && $out == *DISCORD_TOKEN* ]] \
    || fail "without DISCORD_TOKEN the image said (exit $code): $out"
say "the image runs as uid $user, holds no token, and without one says: $out"
"${RUN[@]}" "$IMAGE" python -c "from engine.ultimate import search; assert search._core" \
    || fail "the image lacks ultimate's compiled search (engine.ultimate._core)"
say "the image holds ultimate's compiled search"
"${RUN[@]}" "$IMAGE" python -c "from bot.pictures import marks; assert marks.font() is not None" \
    || fail "the image lacks the colour emoji font that picture boards draw marks with"
say "the image holds the colour emoji font"

# The topology, played through the local Discord.
PY=${PYTHON:-$ROOT/.venv/bin/python}
[[ -x $PY ]] || fail "no $PY: install the project first (the README's second command)"
if [[ $ENGINE == podman ]] && ! [[ -x $(dirname "$PY")/podman-compose ]]; then
    say "installing podman-compose into the project's environment"
    "$PY" -m pip install -q "podman-compose>=1.2" || fail "podman-compose could not be installed"
fi
"$PY" scripts/container_check.py --engine "$ENGINE" --image "$IMAGE" --postgres-image "$PG_IMAGE"
say "passed in $(( $(date +%s) - started )) s"
