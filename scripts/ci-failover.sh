#!/usr/bin/env bash
# A pg_auto_failover formation on local ports, for the failover tests and CI: one monitor and two Postgres nodes
# (synchronous replication between them), each run by its own `pg_autoctl run` keeper in the background.
#
#   scripts/ci-failover.sh up [DATABASE]        create, or reuse a healthy one; creates DATABASE if missing (default
#                                               postgres); prints the multi-host URL of it
#   scripts/ci-failover.sh state                `pg_autoctl show state`
#   scripts/ci-failover.sh events [count]       `pg_autoctl show events` (the monitor's log of state changes)
#   scripts/ci-failover.sh primary-port         the current primary's port
#   scripts/ci-failover.sh kill-primary         kill -9 the primary's keeper and Postgres (its machine is lost); prints name and port
#   scripts/ci-failover.sh kill-node PORT       the same for a given node (e.g. the secondary)
#   scripts/ci-failover.sh restart-node PORT    start a killed node's keeper again, wait until primary + secondary
#   scripts/ci-failover.sh switchover           drain writes, `pg_autoctl perform switchover`, wait until primary + secondary
#   scripts/ci-failover.sh down                 stop everything, remove the directory
#
# Environment: FAILOVER_DIR (/var/tmp/payments-failover), FAILOVER_MONITOR_PORT (5440), FAILOVER_NODE1_PORT (5441),
# FAILOVER_NODE2_PORT (5442), FAILOVER_SETTINGS (tuned; `defaults` keeps pg_auto_failover's own timeouts, ~50 s of
# write outage after losing the primary instead of ~15 s; see docs in the settings block below).
#
# Clients: libpq (psql) with target_session_attrs=read-write skips the standby and a promoted node that is still
# read-only, and finds the new primary once it takes writes. So does the platform's postgres.js: 3.4.9's read-write
# only looked at default_transaction_read_only, which is off on a hot standby, and settled there (every write then
# failed with 25006); patches/postgres+3.4.9.patch also checks in_hot_standby, as libpq does.
#
# pg_autoctl refuses to run as root: every pg_autoctl and Postgres process runs as the postgres OS user, with its
# configuration and state (XDG_CONFIG_HOME, XDG_DATA_HOME) inside the directory, so `down` leaves nothing behind.
# Only the result goes to stdout, for callers to read; what the tools print goes to stderr (a file descriptor kept
# aside for it would be inherited by the keepers and hold a caller's $(...) open), the keepers' own output to
# ${FAILOVER_DIR}/*.log.
set -euo pipefail

dir="${FAILOVER_DIR:-/var/tmp/payments-failover}"
monitor_port="${FAILOVER_MONITOR_PORT:-5440}"
node1_port="${FAILOVER_NODE1_PORT:-5441}"
node2_port="${FAILOVER_NODE2_PORT:-5442}"
settings="${FAILOVER_SETTINGS:-tuned}"
# The newest Postgres that has the pgautofailover extension (Debian's postgresql-NN-auto-failover).
version="$(ls -d /usr/lib/postgresql/*/lib/pgautofailover.so 2>/dev/null | sed -E 's|/usr/lib/postgresql/([0-9]+)/.*|\1|' | sort -n | tail -1)"
bindir="/usr/lib/postgresql/${version}/bin"

case "${settings}" in tuned | defaults) ;; *) echo "FAILOVER_SETTINGS must be tuned or defaults" >&2; exit 2 ;; esac
for port in "${monitor_port}" "${node1_port}" "${node2_port}"; do
  [[ "${port}" =~ ^[0-9]+$ ]] || { echo "not a port: ${port}" >&2; exit 2; }
done

# The monitor's settings (milliseconds, bytes) and the keepers' (seconds); FAILOVER_SETTINGS=defaults RESETs them to
# pg_auto_failover's own. How a lost primary is replaced, and why these values keep it free of split brain:
# - the monitor declares the primary failed once its health checks fail (period + retries x delay: ~3 s for a dead
#   machine whose port refuses connections, ~8 s for one that drops packets) AND its keeper has not reported for
#   node_considered_unhealthy_timeout; it then promotes the standby (still read-only: default_transaction_read_only),
#   waits primary_demote_timeout for a primary that might still be alive to stop itself, and only then opens the
#   standby to writes (wait_primary). Measured outage: ~51 s with the defaults, ~13 s with these.
# - a primary cut off from both monitor and standby stops itself once neither was seen for network_partition_timeout;
#   it "sees" the standby while its walsender is in pg_stat_replication, which in a real partition lasts until
#   wal_sender_timeout. So it stops within 5 + 3 s + one keeper loop (2-4 s; measured: 4.3 s after losing the standby),
#   before the monitor opens the new primary (at least 5-8 + 7 s). The monitor must wait at least that long.
# - before it stops it cannot acknowledge a commit anyway: synchronous_standby_names names the standby, so commits wait
#   for it (statement_timeout does not end that wait). Only a cancel request does: the commit then returns success
#   with a WARNING, committed locally only. A lower demote timeout narrows that window (and stale reads), not widens it.
tuned_monitor=(
  "pgautofailover.health_check_period=1000"             # default 5000: one cheap connection per node per second
  "pgautofailover.health_check_timeout=2000"            # default 5000: a local Postgres answers in ms, even loaded
  "pgautofailover.health_check_max_retries=2"           # default 2
  "pgautofailover.health_check_retry_delay=1000"        # default 2000
  "pgautofailover.node_considered_unhealthy_timeout=5000" # default 20000: keepers report every second
  "pgautofailover.primary_demote_timeout=7000"          # default 30000: > wal_sender_timeout + network_partition_timeout
)
monitor_gucs=(health_check_period health_check_timeout health_check_max_retries health_check_retry_delay
  node_considered_unhealthy_timeout primary_demote_timeout)
tuned_network_partition_timeout=3 # default 20 (seconds)
tuned_wal_sender_timeout=5s       # pg_autoctl's default 30s

node_dir() { # port -> data directory
  case "$1" in
    "${node1_port}") echo "${dir}/node1" ;;
    "${node2_port}") echo "${dir}/node2" ;;
    *) echo "no node on port $1 (nodes: ${node1_port} ${node2_port})" >&2; return 1 ;;
  esac
}

# As the postgres user, with a clean environment: root's PATH has directories postgres may not read (pg_autoctl then
# logs errors while looking for pg_ctl), and XDG_* keep pg_autoctl's files inside the directory.
as_pg() {
  runuser -u postgres -- env -i HOME=/var/lib/postgresql LANG=C.UTF-8 LC_ALL=C.UTF-8 \
    PATH="${bindir}:/usr/local/bin:/usr/bin:/bin" PGCONNECT_TIMEOUT=5 \
    XDG_CONFIG_HOME="${dir}/xdg/config" XDG_DATA_HOME="${dir}/xdg/data" XDG_RUNTIME_DIR="${dir}/xdg/run" "$@"
}
monitor_uri="postgres://autoctl_node@127.0.0.1:${monitor_port}/pg_auto_failover?sslmode=disable"
msql() { psql "postgres://postgres@127.0.0.1:${monitor_port}/pg_auto_failover?connect_timeout=5" -qAtX -c "$1"; }
nsql() { psql "postgres://postgres@127.0.0.1:$1/postgres?connect_timeout=5" -qAtX -c "$2"; }

keeper_pids() { # the pg_autoctl run processes of a data directory (the supervisor; its children share its group)
  pgrep -u postgres -f "^pg_autoctl run --pgdata $1\$" || true
}
keeper_running() { [ -n "$(keeper_pids "$1")" ]; }
start_keeper() { # $1 data directory, in the background in its own session, its output to $1.log
  keeper_running "$1" && return 0
  # No PGCONNECT_TIMEOUT here: the keeper's own (2 s) bounds each of its attempts to reach an unanswering monitor,
  # and so how soon a cut-off primary stops itself.
  setsid -f runuser -u postgres -- env -i HOME=/var/lib/postgresql LANG=C.UTF-8 LC_ALL=C.UTF-8 \
    PATH="${bindir}:/usr/local/bin:/usr/bin:/bin" \
    XDG_CONFIG_HOME="${dir}/xdg/config" XDG_DATA_HOME="${dir}/xdg/data" XDG_RUNTIME_DIR="${dir}/xdg/run" \
    nohup pg_autoctl run --pgdata "$1" >>"$1.log" 2>&1 </dev/null
}
kill_tree() { # SIGNAL data-directory: the keeper's process group (supervisor, its services, Postgres) and Postgres
  local sig="$1" data="$2" pid pgid
  for pid in $(keeper_pids "${data}"); do
    pgid="$(ps -o pgid= -p "${pid}" | tr -d ' ')"
    # Its own session (setsid), so the group is the keeper's alone; never our own group.
    if [ -n "${pgid}" ] && [ "${pgid}" != "$(ps -o pgid= -p $$ | tr -d ' ')" ]; then kill "-${sig}" -- "-${pgid}" 2>/dev/null || true; fi
    kill "-${sig}" "${pid}" 2>/dev/null || true
  done
  if [ -f "${data}/postmaster.pid" ]; then
    pid="$(head -1 "${data}/postmaster.pid")"
    if [[ "${pid}" =~ ^[0-9]+$ ]] && ps -o args= -p "${pid}" | grep -q -- "-D ${data}"; then kill "-${sig}" "${pid}" 2>/dev/null || true; fi
  fi
}
postmaster_running() { [ -f "$1/postmaster.pid" ] && ps -o args= -p "$(head -1 "$1/postmaster.pid")" 2>/dev/null | grep -q -- "-D $1"; }

# Formation healthy: exactly one primary and one secondary that reached the states the monitor assigned, both
# keepers reporting (every second; a killed one is still "primary" on the monitor for seconds), both Postgres up.
healthy() {
  [ "$(msql "select count(*) filter (where reportedstate = 'primary' and goalstate = 'primary') = 1
                and count(*) filter (where reportedstate = 'secondary' and goalstate = 'secondary') = 1
                and count(*) = 2 and bool_and(reporttime > now() - interval '4 seconds')
                from pgautofailover.node" 2>/dev/null)" = t ] &&
    pg_isready -h 127.0.0.1 -p "${node1_port}" -q && pg_isready -h 127.0.0.1 -p "${node2_port}" -q
}
wait_healthy() { # seconds
  local deadline=$((SECONDS + $1))
  until healthy; do
    if [ "${SECONDS}" -ge "${deadline}" ]; then
      echo "the formation did not reach primary + secondary in $1 s:" >&2
      as_pg pg_autoctl show state --pgdata "${dir}/monitor" >&2 || true
      return 1
    fi
    sleep 1
  done
}
wait_ready() { # port seconds
  local deadline=$((SECONDS + $2))
  until pg_isready -h 127.0.0.1 -p "$1" -q; do
    [ "${SECONDS}" -lt "${deadline}" ] || { echo "nothing answers on port $1 after $2 s" >&2; return 1; }
    sleep 1
  done
}
primary_row() { # "name port" of the node the monitor has as primary (or the one being made primary)
  msql "select nodename || ' ' || nodeport from pgautofailover.node
         where goalstate in ('primary', 'wait_primary', 'single', 'join_primary', 'apply_settings')
            or reportedstate in ('primary', 'wait_primary', 'single') and goalstate <> 'demoted'
         order by (reportedstate = goalstate) desc, reportedstate = 'primary' desc limit 1"
}

apply_settings() {
  local kv name data port
  # Monitor: ALTER SYSTEM (postgresql.auto.conf wins over pg_autoctl's postgresql-auto-failover.conf); all are
  # reloadable (context sighup).
  for name in "${monitor_gucs[@]}"; do msql "alter system reset pgautofailover.${name}" >/dev/null; done
  if [ "${settings}" = tuned ]; then
    for kv in "${tuned_monitor[@]}"; do msql "alter system set ${kv%%=*} = '${kv#*=}'" >/dev/null; done
  fi
  msql "select pg_reload_conf()" >/dev/null
  # Keepers: their config file, then a reload (SIGHUP) of the running ones.
  for data in "${dir}/node1" "${dir}/node2"; do
    [ -d "${data}" ] || continue
    as_pg pg_autoctl config set --pgdata "${data}" timeout.network_partition_timeout \
      "$([ "${settings}" = tuned ] && echo "${tuned_network_partition_timeout}" || echo 20)" >/dev/null
    if keeper_running "${data}"; then as_pg pg_autoctl reload --pgdata "${data}" >/dev/null 2>&1 || true; fi
  done
  # Nodes: wal_sender_timeout bounds how long a cut-off primary still sees its standby in pg_stat_replication.
  # ALTER SYSTEM works on a standby too; a standby rebuilt by pg_basebackup copies the primary's file.
  for port in "${node1_port}" "${node2_port}"; do
    pg_isready -h 127.0.0.1 -p "${port}" -q || continue
    if [ "${settings}" = tuned ]; then
      nsql "${port}" "alter system set wal_sender_timeout = '${tuned_wal_sender_timeout}'" >/dev/null
    else
      nsql "${port}" "alter system reset wal_sender_timeout" >/dev/null
    fi
    nsql "${port}" "select pg_reload_conf()" >/dev/null
  done
}

# Small memory: pg_autoctl sizes shared_buffers etc. for a dedicated server (GBs on this machine), three of them
# share a CI machine. wal_keep_size: pg_autoctl's 8 GB would let a test fill the disk.
small_memory() { # data directory, Postgres stopped (after `pg_autoctl create`, before `run`)
  grep -q 'payments ci-failover' "$1/postgresql.auto.conf" 2>/dev/null && return 0
  cat >>"$1/postgresql.auto.conf" <<'EOF'
# payments ci-failover: small memory for a shared CI machine
shared_buffers = '128MB'
effective_cache_size = '512MB'
maintenance_work_mem = '64MB'
work_mem = '4MB'
wal_keep_size = '256MB'
EOF
}

port_free() { ! ss -Hltn "sport = :$1" | grep -q .; }

create() {
  local port
  for port in "${monitor_port}" "${node1_port}" "${node2_port}"; do
    port_free "${port}" || { echo "port ${port} is in use by something else; set FAILOVER_*_PORT" >&2; return 1; }
  done
  rm -rf "${dir}"
  mkdir -p "${dir}/xdg/config" "${dir}/xdg/data" "${dir}/xdg/run"
  chmod 700 "${dir}/xdg/run"
  chown -R postgres:postgres "${dir}"
  chmod 755 "${dir}"

  as_pg pg_autoctl create monitor --pgdata "${dir}/monitor" --pgport "${monitor_port}" --pgctl "${bindir}/pg_ctl" \
    --hostname 127.0.0.1 --auth trust --no-ssl
  small_memory "${dir}/monitor"
  start_keeper "${dir}/monitor"
  wait_ready "${monitor_port}" 60
  local deadline=$((SECONDS + 60))
  until [ "$(msql "select count(*) from pg_extension where extname = 'pgautofailover'" 2>/dev/null)" = 1 ]; do
    [ "${SECONDS}" -lt "${deadline}" ] || { echo "the monitor has no pgautofailover extension" >&2; return 1; }
    sleep 1
  done
  apply_settings

  local n data
  for n in 1 2; do
    data="${dir}/node${n}"
    port="$([ "${n}" = 1 ] && echo "${node1_port}" || echo "${node2_port}")"
    # node1 initdb's and becomes single; node2 pg_basebackup's from it (so node1's keeper must be running).
    as_pg pg_autoctl create postgres --pgdata "${data}" --pgport "${port}" --pgctl "${bindir}/pg_ctl" \
      --pghost 127.0.0.1 --listen 127.0.0.1 --hostname 127.0.0.1 --name "node${n}" \
      --monitor "${monitor_uri}" --auth trust --no-ssl --username postgres --dbname postgres
    small_memory "${data}"
    start_keeper "${data}"
    wait_ready "${port}" 120
  done
  # Two nodes: 0 is the only value pg_auto_failover accepts (it refuses 1 without a second standby). It still makes
  # replication synchronous: synchronous_standby_names = 'ANY 1 (pgautofailover_standby_N)' while the standby is
  # healthy, '' (async, wait_primary) once the monitor finds it unhealthy. (`pg_autoctl set formation
  # number-sync-standbys` of Debian's 2.0 refuses every value, "is not valid. Expected a non-negative integer value",
  # pg_auto_failover issue #929: the monitor's function does the same. Setting it makes the primary apply_settings,
  # so only when it differs.)
  if [ "$(msql "select number_sync_standbys from pgautofailover.formation where formationid = 'default'")" != 0 ]; then
    wait_healthy 180
    msql "select pgautofailover.set_formation_number_sync_standbys('default', 0)" >/dev/null
  fi
}

stop_all() {
  local data
  for data in "${dir}/node1" "${dir}/node2" "${dir}/monitor"; do kill_tree TERM "${data}"; done
  for _ in $(seq 1 30); do
    local alive=0
    for data in "${dir}/node1" "${dir}/node2" "${dir}/monitor"; do
      if keeper_running "${data}" || postmaster_running "${data}"; then alive=1; fi
    done
    [ "${alive}" = 0 ] && return 0
    sleep 1
  done
  for data in "${dir}/node1" "${dir}/node2" "${dir}/monitor"; do kill_tree KILL "${data}"; done
  sleep 1
}

up() {
  if [ -d "${dir}/monitor" ] && [ -d "${dir}/node1" ] && [ -d "${dir}/node2" ]; then
    # Reuse: start what is not running (a reboot, a killed node), give it time to come back.
    local data started=0
    for data in "${dir}/monitor" "${dir}/node1" "${dir}/node2"; do
      keeper_running "${data}" || { start_keeper "${data}"; started=1; }
    done
    # A keeper started again first reports what it had (a killed primary: "primary"), and the monitor may be in the
    # middle of a failover: let it settle before believing the state.
    if [ "${started}" = 1 ]; then sleep 10; fi
    if wait_ready "${monitor_port}" 60 && wait_healthy 120; then
      apply_settings
      return 0
    fi
    echo "the formation in ${dir} does not come back: making it again" >&2
    stop_all
  fi
  create
  wait_healthy 180
  apply_settings
}

cmd="${1:-}"
case "${cmd}" in
  up)
    database="${2:-postgres}"
    [[ "${database}" =~ ^[a-z_][a-z0-9_]*$ ]] || { echo "not a database name: ${database}" >&2; exit 2; }
    url="postgres://postgres@127.0.0.1:${node1_port},127.0.0.1:${node2_port}"
    {
      up
      if [ "$(psql "${url}/postgres?target_session_attrs=read-write&connect_timeout=5" -qAtX \
        -c "select count(*) from pg_database where datname = '${database}'")" = 0 ]; then
        psql "${url}/postgres?target_session_attrs=read-write&connect_timeout=5" -qX -v ON_ERROR_STOP=1 \
          -c "create database ${database}"
      fi
    } >&2
    echo "${url}/${database}?target_session_attrs=read-write"
    ;;
  state)
    as_pg pg_autoctl show state --pgdata "${dir}/monitor" 2>/dev/null
    ;;
  events)
    as_pg pg_autoctl show events --pgdata "${dir}/monitor" --count "${2:-30}" 2>/dev/null
    ;;
  primary-port)
    row="$(primary_row)"
    [ -n "${row}" ] || { echo "no primary" >&2; exit 1; }
    echo "${row#* }"
    ;;
  kill-primary | kill-node)
    if [ "${cmd}" = kill-primary ]; then
      row="$(primary_row)"
      [ -n "${row}" ] || { echo "no primary" >&2; exit 1; }
    else
      [ -n "${2:-}" ] || { echo "usage: $0 kill-node PORT" >&2; exit 2; }
      row="$(msql "select nodename || ' ' || nodeport from pgautofailover.node where nodeport = ${2//[^0-9]/}")"
      [ -n "${row}" ] || { echo "no node on port $2" >&2; exit 1; }
    fi
    data="$(node_dir "${row#* }")"
    # The machine is gone at once: keeper, its node-active and postgres services, the postmaster and its backends.
    kill_tree KILL "${data}"
    for _ in $(seq 1 25); do postmaster_running "${data}" || keeper_running "${data}" || break; sleep 0.2; done
    echo "${row}"
    ;;
  restart-node)
    [ -n "${2:-}" ] || { echo "usage: $0 restart-node PORT" >&2; exit 2; }
    data="$(node_dir "$2")"
    {
      start_keeper "${data}"
      # It finds itself demoted (or still a standby), rewinds with pg_rewind and rejoins as secondary.
      sleep 2
      wait_healthy 180
    } >&2
    ;;
  switchover)
    {
      # Writes are drained first, as an operator's runbook does (docs/scaling.md, "A planned switchover"):
      # pg_auto_failover 2.0 (Debian 12's) may answer the old primary's first report after `perform switchover`
      # with wait_primary ("none of the standby nodes in the quorum are healthy": the standby is already being
      # promoted), which turns synchronous replication off, and its keeper cannot go from wait_primary to
      # demote_timeout. It then acknowledges writes locally until primary_demote_timeout, while the standby being
      # promoted has stopped replicating: the new primary never gets them (the failover test saw 1,100 lost).
      old_primary="$(primary_row | awk '{print $2}')"
      nsql "${old_primary}" "alter system set default_transaction_read_only = on" >/dev/null
      nsql "${old_primary}" "select pg_reload_conf()" >/dev/null
      # Every session reads the reload at its next statement; a statement under way ends within API_DEADLINE_MS.
      sleep 3
      as_pg pg_autoctl perform switchover --pgdata "${dir}/monitor" --wait 120
      wait_healthy 120
      # Now a standby: it takes writes again once it is promoted some day.
      nsql "${old_primary}" "alter system reset default_transaction_read_only" >/dev/null
      nsql "${old_primary}" "select pg_reload_conf()" >/dev/null
    } >&2
    ;;
  down)
    {
      stop_all
      rm -rf "${dir}" "/tmp/pg_autoctl${dir}"
    } >&2
    ;;
  *)
    echo "usage: $0 up|state|events [count]|primary-port|kill-primary|kill-node PORT|restart-node PORT|switchover|down" >&2
    exit 2
    ;;
esac
