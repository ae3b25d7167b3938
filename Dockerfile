# The bot in a container: the package with its postgres extra in a virtual environment, run as an
# unprivileged user, holding no token. Settings come from the environment (see .env.example);
# compose.yaml runs two shards on one PostgreSQL. BASE is any image with Python 3.11 or later
# and its venv module (a Debian image's own pip refuses to install into the system's Python, so
# nothing is installed there); BUILD_BASE the same Python at the same path with a C compiler and
# Python's headers, where the environment is built (ultimate's compiled search) and copied from.
# scripts/check_container.sh builds it and runs the topology.
ARG BASE=python:3.11-slim
ARG BUILD_BASE=python:3.11
FROM ${BUILD_BASE} AS build

# pip's package index, as the building machine's pip has it (the check passes its own through);
# unset, pip's default. A CA bundle mounted at /host-certs (podman build -v) is trusted too.
ARG PIP_INDEX_URL
ARG PIP_EXTRA_INDEX_URL
WORKDIR /app
COPY pyproject.toml setup.py MANIFEST.in README.md ./
COPY requirements/bot.txt ./requirements/
COPY engine ./engine
COPY bot ./bot
# Every dependency at its locked version, checked against its hashes, then the project itself
# (built with the locked setuptools).
RUN if [ -s /host-certs/ca-certificates.crt ]; then \
        export PIP_CERT=/host-certs/ca-certificates.crt; fi \
    && python3 -m venv /opt/tictactoe \
    && /opt/tictactoe/bin/pip install --no-cache-dir --disable-pip-version-check \
        -r requirements/bot.txt \
    && /opt/tictactoe/bin/pip install --no-cache-dir --disable-pip-version-check \
        --no-deps --no-build-isolation . \
    && cd / && /opt/tictactoe/bin/python -c "import engine.ultimate._core"

FROM ${BASE}
COPY --from=build /opt/tictactoe /opt/tictactoe
# Picture boards draw their marks from Debian's colour emoji font (bot/pictures/marks.py): from
# Debian's packages where the base image lacks it.
RUN if [ ! -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]; then \
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            --no-install-recommends fonts-noto-color-emoji >/dev/null \
        && rm -rf /var/lib/apt/lists/*; fi
RUN useradd --create-home --uid 10001 tictactoe
ENV PATH=/opt/tictactoe/bin:$PATH
USER tictactoe

# Health and metrics on 9108, reachable from other containers (publish it only to localhost).
ENV METRICS_PORT=9108 METRICS_HOST=0.0.0.0 PYTHONUNBUFFERED=1
EXPOSE 9108
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('METRICS_PORT', '9108') + '/healthz', timeout=4)"

CMD ["tictactoe-bot"]
