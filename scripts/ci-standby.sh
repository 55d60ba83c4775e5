#!/usr/bin/env bash
# A streaming hot standby of the local PostgreSQL on the same machine, for the replica tests and CI:
# pg_createcluster, pg_basebackup -R (which writes primary_conninfo and standby.signal), then start it.
# Idempotent: an existing standby is started if down and left as it is. Prints the standby's port.
set -euo pipefail
version="$(ls /etc/postgresql | sort -V | tail -1)"
name="${STANDBY_CLUSTER:-standby}"
port="${STANDBY_PORT:-5433}"
primary_hba="/etc/postgresql/${version}/main/pg_hba.conf"

# Only the port goes to stdout, for callers to read; what the tools print goes to stderr (a file descriptor
# kept aside for it would be inherited by the postmaster and hold a caller's $(...) open).
{
if ! grep -Eq '^host[[:space:]]+replication' "${primary_hba}"; then
  echo "host replication all 127.0.0.1/32 trust" >> "${primary_hba}"
  psql -h 127.0.0.1 -U postgres -qAtc "select pg_reload_conf()" >/dev/null
fi

# The standby's slot holds WAL for it, but never more than this: a standby left stopped cannot fill the disk
# (past it the slot is given up, and the next run makes the standby again).
if [ "$(psql -h 127.0.0.1 -U postgres -qAtc "show max_slot_wal_keep_size")" = "-1" ]; then
  psql -h 127.0.0.1 -U postgres -qAtc "alter system set max_slot_wal_keep_size = '4GB'" >/dev/null
  psql -h 127.0.0.1 -U postgres -qAtc "select pg_reload_conf()" >/dev/null
fi

streaming() {
  [ "$(psql -h 127.0.0.1 -U postgres -qAtc "select count(*) from pg_stat_replication where state = 'streaming'")" -gt 0 ]
}
# A standby that cannot stream (it fell behind WAL the primary no longer has) is made again.
if pg_lsclusters -h | awk '{print $2}' | grep -qx "${name}"; then
  pg_isready -h 127.0.0.1 -p "${port}" -q || pg_ctlcluster --skip-systemctl-redirect "${version}" "${name}" start || true
  for _ in $(seq 1 15); do streaming && break; sleep 1; done
  if ! streaming; then
    pg_dropcluster --stop "${version}" "${name}"
    psql -h 127.0.0.1 -U postgres -qAtc "select pg_drop_replication_slot('${name}') from pg_replication_slots where slot_name = '${name}'" >/dev/null
  fi
fi

if ! pg_lsclusters -h | awk '{print $2}' | grep -qx "${name}"; then
  pg_createcluster "${version}" "${name}" --port "${port}" >/dev/null
  data="/var/lib/postgresql/${version}/${name}"
  find "${data}" -mindepth 1 -delete
  # Streams the WAL written during the copy too (-X stream); -R makes it a standby of the primary; the slot
  # (-C -S) keeps the primary's WAL until the standby has it, so a standby stopped by a test catches up.
  psql -h 127.0.0.1 -U postgres -qAtc "select pg_drop_replication_slot('${name}') from pg_replication_slots where slot_name = '${name}'" >/dev/null
  su postgres -c "pg_basebackup -h 127.0.0.1 -p 5432 -U postgres -D ${data} -R -X stream -c fast -C -S ${name}"
  # The same client rules as the primary (trust on localhost here), so the tests connect to both alike.
  cp "${primary_hba}" "/etc/postgresql/${version}/${name}/pg_hba.conf"
fi
if ! pg_isready -h 127.0.0.1 -p "${port}" -q; then
  pg_ctlcluster --skip-systemctl-redirect "${version}" "${name}" start
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p "${port}" -q && break; sleep 1; done
fi
psql -h 127.0.0.1 -p "${port}" -U postgres -qAtc "select pg_is_in_recovery()" | grep -qx t
} >&2
echo "${port}"
