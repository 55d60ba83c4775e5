#!/usr/bin/env bash
# A Citus cluster on this machine for the Citus pass and for trying it out: a coordinator and two workers, each
# a small PostgreSQL 15 of its own (initdb, citus preloaded) on ports 6100, 6101 and 6102, registered with
# each other. Needs Citus installed (../shared/citus/install.sh) and root or the postgres user.
#   scripts/citus-cluster.sh up [database]   start (made once, idempotent); prints the coordinator's URL
#   scripts/citus-cluster.sh restart         stop and start the three nodes, their data kept (a cold cluster)
#   scripts/citus-cluster.sh down            stop the three nodes and remove their data
# CITUS_DIR (default /var/lib/postgresql/citus-cluster) holds the nodes; CITUS_PORT the coordinator's port.
# CITUS_FSYNC=on makes the nodes durable as production runs them (the benchmarks' fair comparison with the
# local PostgreSQL); it is read when the nodes are made, so `down` first to change it.
set -euo pipefail
command="${1:-up}"
database="${2:-payments}"
dir="${CITUS_DIR:-/var/lib/postgresql/citus-cluster}"
coordinator_port="${CITUS_PORT:-6100}"
ports=("${coordinator_port}" "$((coordinator_port + 1))" "$((coordinator_port + 2))")
bindir="$(ls -d /usr/lib/postgresql/15/bin)"

# Runs a command as postgres (the servers refuse to run as root).
as_postgres() { if [ "$(id -u)" = 0 ]; then su postgres -c "$*"; else sh -c "$*"; fi; }
sql() { psql -h 127.0.0.1 -p "$1" -U postgres -v ON_ERROR_STOP=1 -qAt "${@:2}"; }

if [ "${command}" = restart ]; then
  for port in "${ports[@]}"; do
    as_postgres "${bindir}/pg_ctl -D ${dir}/${port} -l ${dir}/${port}/server.log -m fast -w restart" >/dev/null
  done
  exit 0
fi

if [ "${command}" = down ]; then
  for port in "${ports[@]}"; do
    [ -d "${dir}/${port}" ] && as_postgres "${bindir}/pg_ctl -D ${dir}/${port} -m fast -w stop" >/dev/null 2>&1 || true
  done
  rm -rf "${dir}"
  exit 0
fi

# What the tools print goes to stderr: only the URL goes to stdout, for callers to read.
{
  mkdir -p "${dir}"
  [ "$(id -u)" = 0 ] && chown postgres "${dir}"
  for port in "${ports[@]}"; do
    data="${dir}/${port}"
    if [ ! -f "${data}/PG_VERSION" ]; then
      as_postgres "${bindir}/initdb -D ${data} -A trust -U postgres --no-sync" >/dev/null
      # Small nodes for one machine: the test suites' pools, a worker's connections from the coordinator,
      # and no fsync unless asked (a test cluster: it is made again rather than recovered).
      cat >> "${data}/postgresql.conf" <<CONF
shared_preload_libraries = 'citus'
port = ${port}
listen_addresses = '127.0.0.1'
unix_socket_directories = '${dir}'
max_connections = 300
max_worker_processes = 32
shared_buffers = 128MB
fsync = ${CITUS_FSYNC:-off}
# A commit is acknowledged once its WAL is written (to the OS: fsync is off), so a node's process killed with
# SIGKILL loses nothing acknowledged (tests/integration/citus-worker-loss.test.ts); off, the last 200 ms of
# commits went with it.
synchronous_commit = on
full_page_writes = ${CITUS_FSYNC:-off}
citus.shard_count = 32
# A transaction left prepared on a worker that died under a two-phase commit is settled by the coordinator's
# recovery: every 5 s instead of every 60 (docs/scaling.md, "Faults").
citus.recover_2pc_interval = '5s'
CONF
    fi
    pg_isready -h 127.0.0.1 -p "${port}" -q ||
      as_postgres "${bindir}/pg_ctl -D ${data} -l ${data}/server.log -w -t 60 start" >/dev/null
  done
  for port in "${ports[@]}"; do
    [ "$(sql "${port}" -c "select count(*) from pg_database where datname = '${database}'")" = 1 ] ||
      sql "${port}" -c "create database ${database}"
    PGOPTIONS="-c client_min_messages=warning" sql "${port}" -d "${database}" -c "create extension if not exists citus"
  done
  sql "${coordinator_port}" -d "${database}" -c "select citus_set_coordinator_host('127.0.0.1', ${coordinator_port})" >/dev/null
  for port in "${ports[@]:1}"; do
    sql "${coordinator_port}" -d "${database}" -c "select citus_add_node('127.0.0.1', ${port})" >/dev/null
  done
} >&2
echo "postgres://postgres@127.0.0.1:${coordinator_port}/${database}"
