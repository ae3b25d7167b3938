# The bot in a container: python -m bot with the postgres extra. Settings come from the
# environment (see .env.example); compose.yaml runs two shards on one PostgreSQL.
FROM python:3.11-slim

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
RUN pip install --no-cache-dir ".[postgres]" \
    && useradd --create-home --uid 10001 tictactoe
USER tictactoe

# Health and metrics on 9108, reachable from other containers (publish it only to localhost).
ENV METRICS_PORT=9108 METRICS_HOST=0.0.0.0 PYTHONUNBUFFERED=1
EXPOSE 9108
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:9108/healthz', timeout=4)"

CMD ["tictactoe-bot"]
