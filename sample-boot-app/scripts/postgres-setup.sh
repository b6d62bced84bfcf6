#!/usr/bin/env bash
# Prepares PostgreSQL for sample-boot-app's `postgres` Spring profile:
#   installs the Debian package if needed, makes the server listen on 127.0.0.1 only, starts it, creates the user and
#   database (idempotent) and seeds the `item` table with the same 1,000 rows as the embedded H2 database.
#
#   sample-boot-app/scripts/postgres-setup.sh            # needs root (apt-get, the postgres system user)
#   java -jar sample-boot-app/target/tomcat/sample-boot-app-tomcat.jar --spring.profiles.active=postgres
#   sample-boot-app/scripts/postgres-setup.sh stop       # stops the cluster again
#
# Environment (the same names are read by application-postgres.properties):
#   SPROUT_BENCH_DB (sprout_bench), SPROUT_BENCH_USER (sprout_bench), SPROUT_BENCH_PASSWORD (sprout_bench),
#   PGPORT (5432)
set -euo pipefail

DB=${SPROUT_BENCH_DB:-sprout_bench}
DB_USER=${SPROUT_BENCH_USER:-sprout_bench}
DB_PASSWORD=${SPROUT_BENCH_PASSWORD:-sprout_bench}
PORT=${PGPORT:-5432}

step() { printf '[postgres-setup] %s\n' "$*"; }

for name in "$DB" "$DB_USER"; do
  [[ "$name" =~ ^[a-z_][a-z0-9_]*$ ]] || { echo "invalid identifier '$name'" >&2; exit 2; }
done
[ "$(id -u)" -eq 0 ] || { echo "run as root (installs a package and acts as the postgres user)" >&2; exit 1; }

if [ "${1:-}" = stop ]; then
  VERSION=$(ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -1)
  [ -n "$VERSION" ] && pg_ctlcluster "$VERSION" main stop 2>/dev/null || true
  step "stopped"
  exit 0
fi

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  step "installing the Debian package postgresql"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
VERSION=$(ls /usr/lib/postgresql | sort -V | tail -1)
CLUSTER=main
CONF_DIR=/etc/postgresql/$VERSION/$CLUSTER
if [ ! -d "$CONF_DIR" ]; then
  step "creating cluster $VERSION/$CLUSTER"
  pg_createcluster "$VERSION" "$CLUSTER" --port="$PORT" >/dev/null
fi

# Loopback only: never reachable from another machine.
step "configuring $CONF_DIR: listen_addresses = '127.0.0.1', port $PORT"
sed -i -E "s/^#?listen_addresses\s*=.*/listen_addresses = '127.0.0.1'/" "$CONF_DIR/postgresql.conf"
sed -i -E "s/^#?port\s*=.*/port = $PORT/" "$CONF_DIR/postgresql.conf"
# The benchmark opens up to HikariCP's pool size per server, far below the default of 100.

if pg_lsclusters -h | awk -v v="$VERSION" -v c="$CLUSTER" '$1 == v && $2 == c && $4 == "online"' | grep -q .; then
  step "restarting cluster $VERSION/$CLUSTER"
  pg_ctlcluster "$VERSION" "$CLUSTER" restart
else
  step "starting cluster $VERSION/$CLUSTER"
  pg_ctlcluster "$VERSION" "$CLUSTER" start
fi

as_postgres() { runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -p "$PORT" "$@"; }

step "creating user $DB_USER and database $DB (if missing)"
as_postgres -d postgres -v user="$DB_USER" -v password="$DB_PASSWORD" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN PASSWORD %L', :'user', :'password')
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'user') \gexec
SELECT format('ALTER ROLE %I PASSWORD %L', :'user', :'password') \gexec
SQL
if ! as_postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
  as_postgres -d postgres -c "CREATE DATABASE $DB OWNER $DB_USER"
fi

step "seeding table item (1,000 rows) as $DB_USER over 127.0.0.1"
PGPASSWORD=$DB_PASSWORD PGOPTIONS='-c client_min_messages=warning' psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -U "$DB_USER" -d "$DB" <<'SQL'
CREATE TABLE IF NOT EXISTS item (
    id    INT PRIMARY KEY,
    name  VARCHAR(64) NOT NULL,
    price DECIMAL(10, 2) NOT NULL
);
TRUNCATE item;
INSERT INTO item (id, name, price)
SELECT x, 'item-' || x, x::numeric / 4 FROM generate_series(1, 1000) AS x;
ANALYZE item;
SQL

step "ready: jdbc:postgresql://127.0.0.1:$PORT/$DB (user $DB_USER); run the app with --spring.profiles.active=postgres"
