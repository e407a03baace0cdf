#!/bin/sh
# Creates the cluster on first start, as the official image does, then runs the server.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
  user=${POSTGRES_USER:-postgres}
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C -D "$PGDATA" >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  database=${POSTGRES_DB:-$user}
  if [ "$database" != postgres ]; then
    echo "CREATE DATABASE \"$database\" OWNER \"$user\";" | postgres --single -D "$PGDATA" -j postgres >/dev/null
  fi
  echo "created the cluster in $PGDATA with database $database owned by $user"
fi
if [ "${1:-}" = postgres ]; then
  shift
  exec postgres -c listen_addresses='*' "$@"
fi
exec "$@"
