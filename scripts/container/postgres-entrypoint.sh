#!/bin/sh
# PostgreSQL from Debian's packages, started as the official postgres image starts: on a new data
# folder, a superuser POSTGRES_USER with POSTGRES_PASSWORD and a database POSTGRES_DB are made,
# and password logins are allowed from other hosts. Used by scripts/check_container.sh where no
# image registry can be reached.
set -eu
BIN=$(ls -d /usr/lib/postgresql/*/bin | tail -n 1)
DATA=${PGDATA:-/var/lib/postgresql/data}
PORT=${PGPORT:-5432}
USER_NAME=${POSTGRES_USER:-postgres}
mkdir -p "$DATA" /run/postgresql
chown -R postgres:postgres "$DATA" /run/postgresql
chmod 700 "$DATA"
if [ ! -s "$DATA/PG_VERSION" ]; then
    secret=$(mktemp)
    printf '%s\n' "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}" > "$secret"
    chown postgres "$secret"
    runuser -u postgres -- "$BIN/initdb" -D "$DATA" -U "$USER_NAME" --pwfile="$secret" \
        --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f "$secret"
    echo "host all all 0.0.0.0/0 scram-sha-256" >> "$DATA/pg_hba.conf"
    runuser -u postgres -- "$BIN/pg_ctl" -D "$DATA" -o "-c listen_addresses='' -p $PORT" -w start >/dev/null
    runuser -u postgres -- psql -q -p "$PORT" -U "$USER_NAME" -d postgres \
        -c "CREATE DATABASE \"${POSTGRES_DB:-$USER_NAME}\" OWNER \"$USER_NAME\""
    runuser -u postgres -- "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null
fi
exec runuser -u postgres -- "$BIN/postgres" -D "$DATA" -c listen_addresses='*' -p "$PORT"
