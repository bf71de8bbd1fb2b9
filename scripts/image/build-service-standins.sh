#!/usr/bin/env bash
# Builds local stand-ins for the two images docker-compose.yml pulls, postgres:17-bookworm and
# redis:7-bookworm, for machines that reach only Debian's packages (no container registry), the way
# build-base.sh does for node:26-trixie-slim: a minimal Debian with Debian's own packages, tagged
# with the official names in podman's local store, so that docker-compose.yml runs unchanged.
#
#   bash scripts/image/build-service-standins.sh     # needs root, podman and mmdebstrap
#
# - postgres:17-bookworm: PostgreSQL 17 is Debian trixie's (bookworm has 15); what the compose file
#   uses of the official image is kept: POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB create the
#   role and the database on the first start, the data is in /var/lib/postgresql/data, the server
#   listens on port 5432 with password authentication, and pg_isready is on the PATH.
# - redis:7-bookworm: Debian bookworm's Redis 7; `redis-server ARGS` runs as the redis user with
#   protected mode off (as the official image does), redis-cli is on the PATH.
# Each image carries this script's SHA-256 as the label build-standins.sha256: test/compose.e2e-spec.ts
# builds them again only when a tag is missing or the script has changed.
set -euo pipefail

MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
here=$(cd "$(dirname "$0")" && pwd)
script_hash=$(sha256sum "$here/build-service-standins.sh" | cut -d' ' -f1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

slim=(
  --variant=minbase
  --dpkgopt='path-exclude=/usr/share/man/*'
  --dpkgopt='path-exclude=/usr/share/doc/*'
  --dpkgopt='path-include=/usr/share/doc/*/copyright'
  --dpkgopt='path-exclude=/usr/share/locale/*'
  --dpkgopt='path-exclude=/usr/share/info/*'
)
cleanup_hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin "$1"/var/log/*.log'

cat >"$work/postgres-entrypoint.sh" <<'EOF'
#!/bin/sh
# The stand-in's entry point: the official image's first-start environment, then the server.
set -eu
bin=/usr/lib/postgresql/17/bin
export PGDATA="${PGDATA:-/var/lib/postgresql/data}"
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 0700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  user="${POSTGRES_USER:-postgres}"
  db="${POSTGRES_DB:-$user}"
  pwfile=$(mktemp)
  printf '%s' "${POSTGRES_PASSWORD:?the stand-in needs POSTGRES_PASSWORD, as the official image does}" >"$pwfile"
  "$bin/initdb" -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  if [ "$db" != postgres ]; then
    echo "CREATE DATABASE \"$db\" OWNER \"$user\"" | "$bin/postgres" --single -D "$PGDATA" postgres >/dev/null
  fi
  echo "postgres stand-in: created role $user and database $db"
fi
exec "$bin/postgres" -D "$PGDATA" "$@"
EOF

cat >"$work/redis-entrypoint.sh" <<'EOF'
#!/bin/sh
# The stand-in's entry point: redis-server (and its options) as the redis user, protected mode off.
set -eu
if [ "${1:-redis-server}" = redis-server ] || [ "${1#-}" != "$1" ]; then
  [ "${1:-}" = redis-server ] && shift
  exec setpriv --reuid=redis --regid=redis --init-groups redis-server "$@" --protected-mode no
fi
exec "$@"
EOF

echo "build-service-standins: postgres:17-bookworm (Debian trixie's postgresql-17)"
mmdebstrap "${slim[@]}" --include=postgresql-17,util-linux,ca-certificates \
  --essential-hook='mkdir -p "$1/etc/postgresql-common" && echo "create_main_cluster = false" >"$1/etc/postgresql-common/createcluster.conf"' \
  --customize-hook="upload '$work/postgres-entrypoint.sh' /usr/local/bin/docker-entrypoint.sh" \
  --customize-hook='chmod 0755 "$1/usr/local/bin/docker-entrypoint.sh"' \
  --customize-hook='ln -sf /usr/lib/postgresql/17/bin/pg_isready "$1/usr/local/bin/pg_isready"' \
  --customize-hook='chroot "$1" /usr/lib/postgresql/17/bin/postgres --version' \
  --customize-hook="$cleanup_hook" \
  trixie "$work/postgres.tar" "$MIRROR"
podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV PGDATA=/var/lib/postgresql/data' \
  --change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
  --change 'CMD []' \
  --change 'EXPOSE 5432' \
  --change 'STOPSIGNAL SIGINT' \
  --change "LABEL build-standins.sha256=$script_hash" \
  --message "stand-in for postgres:17-bookworm (scripts/image/build-service-standins.sh)" \
  "$work/postgres.tar" postgres:17-bookworm >/dev/null

echo "build-service-standins: redis:7-bookworm (Debian bookworm's redis-server)"
mmdebstrap "${slim[@]}" --include=redis-server,util-linux \
  --customize-hook="upload '$work/redis-entrypoint.sh' /usr/local/bin/docker-entrypoint.sh" \
  --customize-hook='chmod 0755 "$1/usr/local/bin/docker-entrypoint.sh"' \
  --customize-hook='chroot "$1" redis-server --version' \
  --customize-hook="$cleanup_hook" \
  bookworm "$work/redis.tar" "$MIRROR"
podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
  --change 'CMD ["redis-server"]' \
  --change 'EXPOSE 6379' \
  --change "LABEL build-standins.sha256=$script_hash" \
  --message "stand-in for redis:7-bookworm (scripts/image/build-service-standins.sh)" \
  "$work/redis.tar" redis:7-bookworm >/dev/null
echo "build-service-standins: postgres:17-bookworm and redis:7-bookworm in podman's store"
