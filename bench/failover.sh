#!/usr/bin/env bash
# Write outage on the pg_auto_failover formation of scripts/ci-failover.sh, with a steady trickle of writes (one
# psql insert every 0.2 s through the multi-host URL, connect_timeout=1: a few processes a second, no load).
#
#   FAILOVER_SETTINGS=tuned|defaults bench/failover.sh [runs]            kill -9 the primary's machine, `runs` times
#   FAILOVER_SETTINGS=tuned|defaults bench/failover.sh secondary [runs]  kill -9 the secondary's machine instead
#
# primary: per run, seconds from the kill to the first failed write, to the first write that succeeds again (the
# outage), and, from the monitor's events, to its health checks marking the primary unhealthy, to the failover's start
# (the keeper has not reported for node_considered_unhealthy_timeout either: the monitor assigns draining), to the
# standby's promotion (reported stop_replication: promoted, still read-only) and to writes being allowed (reported
# wait_primary). The killed node is then restarted (it rejoins as secondary) for the next run.
# secondary: how long commits on the primary wait for the lost synchronous standby, until the monitor switches the
# primary to wait_primary (synchronous_standby_names = ''), and what a commit whose wait is cancelled (statement_timeout,
# as the app sets) returns.
# Prints one line per run on stdout; details (writes, events) on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=primary
if [ "${1:-}" = secondary ]; then mode=secondary; shift; fi
runs="${1:-3}"
fo=scripts/ci-failover.sh
settings="${FAILOVER_SETTINGS:-tuned}"

url="$(${fo} up)"
writes="${url}&connect_timeout=1&application_name=bench-failover"
monitor="postgres://postgres@127.0.0.1:${FAILOVER_MONITOR_PORT:-5440}/pg_auto_failover"
psql "${url}" -qAtX -c "create table if not exists failover_bench (id bigserial primary key, at timestamptz not null default clock_timestamp(), note text)" >/dev/null

now() { date +%s.%N; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "") print "-"; else printf "%.1f", a - b }'; }

writer() { # log stop-file note: start time, end time, ok|fail, port or error
  local t0 out
  while [ ! -e "$2" ]; do
    t0="$(now)"
    if out="$(timeout 90 psql "${writes}" -qAtX -c "insert into failover_bench (note) values ('$3') returning inet_server_port()" 2>&1)"; then
      echo "${t0} $(now) ok ${out//$'\n'/ }"
    else
      echo "${t0} $(now) fail ${out//$'\n'/ }"
    fi >>"$1"
    sleep 0.2
  done
}

event_time() { # kill-epoch sql-condition: epoch of the first monitor event after the kill matching it
  psql "${monitor}" -qAtX -c "select extract(epoch from eventtime) from pgautofailover.event
                               where eventtime >= to_timestamp($1) and ($2) order by eventid limit 1"
}

primary_run() { # run number
  local log stop kill_at killed port first_fail first_ok marked unhealthy promoted writable
  log="$(mktemp)"; stop="$(mktemp -u)"
  writer "${log}" "${stop}" "${settings}-$1" &
  local wpid=$!
  sleep 3
  port="$(${fo} primary-port)"
  kill_at="$(now)"
  killed="$(${fo} kill-node "${port}")"
  # Until a write succeeds again after the first failed one (or 150 s). A write that started just before the kill
  # may still succeed: the outage starts at the kill, ends with the first write that succeeds after a failure.
  local deadline=$((SECONDS + 150))
  until awk -v k="${kill_at}" '$2 > k && $3 == "fail" { f = 1 } f && $3 == "ok" { o = 1 } END { exit !o }' "${log}" \
    || [ "${SECONDS}" -ge "${deadline}" ]; do sleep 0.5; done
  sleep 1
  touch "${stop}"; wait "${wpid}" || true; rm -f "${stop}"
  first_fail="$(awk -v k="${kill_at}" '$2 > k && $3 == "fail" { print $1; exit }' "${log}")"
  first_ok="$(awk -v k="${kill_at}" '$2 > k && $3 == "fail" { f = 1 } f && $3 == "ok" { print $2; exit }' "${log}")"
  marked="$(event_time "${kill_at}" "nodeport = ${port} and description like '%marked as unhealthy%'")"
  unhealthy="$(event_time "${kill_at}" "nodeport = ${port} and goalstate = 'draining'")"
  promoted="$(event_time "${kill_at}" "nodeport <> ${port} and reportedstate = 'stop_replication'")"
  writable="$(event_time "${kill_at}" "nodeport <> ${port} and reportedstate = 'wait_primary'")"
  {
    echo "--- ${settings} run $1: killed ${killed} at $(date -d "@${kill_at}" +%T.%N | cut -c1-12)"
    awk -v k="${kill_at}" '$2 > k - 1' "${log}" | awk '{ $1 = strftime("%T", $1) "." substr($1, 12, 2); $2 = ""; print }' \
      | awk '{ key = $2 " " substr($0, index($0, $3)); if (key != prev) { print; n = 0 } else if (++n == 1) print "   ..."; prev = key }'
    psql "${monitor}" -qAtX -F ' | ' -c "select to_char(eventtime, 'HH24:MI:SS.MS'), nodename, reportedstate, goalstate, description
                                         from pgautofailover.event where eventtime >= to_timestamp(${kill_at}) order by eventid limit 20"
  } >&2
  printf '%s run %s: killed %-12s first failed write +%ss, health check marks it unhealthy +%ss, failover starts (draining) +%ss, promoted (stop_replication) +%ss, writable (wait_primary) +%ss, first write ok +%ss => outage %ss\n' \
    "${settings}" "$1" "${killed}" "$(sub "${first_fail}" "${kill_at}")" "$(sub "${marked}" "${kill_at}")" "$(sub "${unhealthy}" "${kill_at}")" \
    "$(sub "${promoted}" "${kill_at}")" "$(sub "${writable}" "${kill_at}")" "$(sub "${first_ok}" "${kill_at}")" \
    "$(sub "${first_ok}" "${kill_at}")"
  rm -f "${log}"
  ${fo} restart-node "${port}" >&2
}

secondary_run() { # run number
  local primary_port secondary_port kill_at killed log stop out t0 t1 marked relaxed
  primary_port="$(${fo} primary-port)"
  secondary_port="$(psql "${monitor}" -qAtX -c "select nodeport from pgautofailover.node where reportedstate = 'secondary'")"
  local direct="postgres://postgres@127.0.0.1:${primary_port}/postgres?application_name=bench-failover"
  local tag; tag="${settings}-$1-$(date +%s)"
  log="$(mktemp)"; stop="$(mktemp -u)"
  writer "${log}" "${stop}" "${settings}-secondary-$1" &
  local wpid=$!
  sleep 2
  kill_at="$(now)"
  killed="$(${fo} kill-node "${secondary_port}")"
  sleep 0.5
  # Two commits on the primary while it waits for the lost standby: one with statement_timeout = 3 s (the app sets
  # 30 s), one cancelled after 1.5 s by pg_cancel_backend (what a client's cancel request does). What do they return?
  local probe_t probe_c
  probe_t="$(mktemp)"; probe_c="$(mktemp)"
  ( t0="$(now)"; out="$(psql "${direct}" -qAtX -c "set statement_timeout = '3s'" \
      -c "insert into failover_bench (note) values ('timeout-wait-${tag}') returning id" 2>&1 || echo "(exit $?)")"
    echo "$(sub "$(now)" "${t0}") ${out//$'\n'/ }" >"${probe_t}" ) &
  local tpid=$!
  ( t0="$(now)"; out="$(psql "${direct}&application_name=bench-cancel" -qAtX \
      -c "insert into failover_bench (note) values ('cancelled-wait-${tag}') returning id" 2>&1 || echo "(exit $?)")"
    echo "$(sub "$(now)" "${t0}") ${out//$'\n'/ }" >"${probe_c}" ) &
  local cpid=$!
  sleep 1.5
  psql "${direct}" -qAtX -c "select pg_cancel_backend(pid) from pg_stat_activity where application_name = 'bench-cancel'" >/dev/null
  wait "${tpid}" "${cpid}" || true
  local deadline=$((SECONDS + 150))
  until [ "$(psql "${monitor}" -qAtX -c "select count(*) from pgautofailover.node where nodeport = ${primary_port} and reportedstate = 'wait_primary'")" = 1 ] \
    || [ "${SECONDS}" -ge "${deadline}" ]; do sleep 0.5; done
  sleep 2
  touch "${stop}"; wait "${wpid}" || true; rm -f "${stop}"
  marked="$(event_time "${kill_at}" "nodeport = ${secondary_port} and goalstate = 'catchingup'")"
  relaxed="$(event_time "${kill_at}" "nodeport = ${primary_port} and reportedstate = 'wait_primary'")"
  local rows
  rows="$(psql "${direct}" -qAtX -c "select count(*) filter (where note = 'timeout-wait-${tag}') || ' and ' || count(*) filter (where note = 'cancelled-wait-${tag}') from failover_bench")"
  {
    echo "--- ${settings} secondary run $1: killed ${killed}"
    awk -v k="${kill_at}" '$2 > k - 1' "${log}" | awk '{ printf "%s start +%.1f took %.1fs %s\n", $3, $1 - '"${kill_at}"', $2 - $1, substr($0, index($0, $4)) }'
    psql "${monitor}" -qAtX -F ' | ' -c "select to_char(eventtime, 'HH24:MI:SS.MS'), nodename, reportedstate, goalstate, description
                                         from pgautofailover.event where eventtime >= to_timestamp(${kill_at}) order by eventid limit 12"
  } >&2
  local longest
  longest="$(awk -v k="${kill_at}" '$2 > k { d = $2 - $1; if (d > m) m = d } END { printf "%.1f", m }' "${log}")"
  printf '%s secondary run %s: killed %s; monitor marks it (catchingup) +%ss, primary reaches wait_primary +%ss; longest commit wait %ss; commit with statement_timeout 3s: after %s; commit cancelled at 1.5s: after %s (rows on the primary: %s)\n' \
    "${settings}" "$1" "${killed}" "$(sub "${marked}" "${kill_at}")" "$(sub "${relaxed}" "${kill_at}")" "${longest}" \
    "$(cat "${probe_t}")" "$(cat "${probe_c}")" "${rows}"
  rm -f "${log}" "${probe_t}" "${probe_c}"
  ${fo} restart-node "${secondary_port}" >&2
}

for run in $(seq 1 "${runs}"); do
  if [ "${mode}" = primary ]; then primary_run "${run}"; else secondary_run "${run}"; fi
done
