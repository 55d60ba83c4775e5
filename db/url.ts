/**
 * A postgres:// URL may name several hosts, `postgres://user@h1:5432,h2:5432/db?target_session_attrs=read-write`
 * (postgres.js and libpq try them in order, and keep the one that takes writes), which the WHATWG URL parser
 * refuses. These read and change the parts the platform needs, whatever the host list.
 */
const URL_PARTS = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/s;

export type DatabaseUrlParts = {
  /** Each host as written, `host:port` or `host` ([::1]:5432 for IPv6). */
  hosts: string[];
  /** Without brackets or ports, for checks like "is this machine". */
  hostnames: string[];
  database: string;
  searchParams: URLSearchParams;
};

function split(url: string) {
  const match = URL_PARTS.exec(url);
  if (!match) throw new Error("not a postgres:// or postgresql:// URL");
  return { scheme: match[1]!, userinfo: match[2] ?? "", hostList: match[3]!, rest: match[4]! };
}

export function databaseUrlParts(url: string): DatabaseUrlParts {
  const { scheme, userinfo, hostList, rest } = split(url);
  const hosts = hostList.split(",");
  // The first host stands in for all of them: what follows the host list parses the same.
  const parsed = new URL(`${scheme}${userinfo}${hosts[0] || "localhost"}${rest}`);
  return {
    hosts,
    hostnames: hosts.map((host) => host.replace(/:\d*$/, "").replace(/^\[(.*)\]$/, "$1")),
    database: decodeURIComponent(parsed.pathname.slice(1)),
    searchParams: parsed.searchParams,
  };
}

/** The same servers and settings, another database on them. */
export function withDatabaseName(url: string, database: string): string {
  const { scheme, userinfo, hostList, rest } = split(url);
  const query = rest.replace(/^\/[^?#]*/, "");
  return `${scheme}${userinfo}${hostList}/${encodeURIComponent(database)}${query}`;
}

/** `host:port/database` for logs and status pages (no user or password). */
export function databaseDisplayName(url: string): string {
  const { hosts, database } = databaseUrlParts(url);
  return `${hosts.map((host) => (/:\d+$/.test(host) ? host : `${host || "localhost"}:5432`)).join(",")}/${database}`;
}
