import { BlockList, isIP } from "node:net";

/**
 * Which hops in front of the app are trusted to report the client's address (`TRUSTED_PROXIES`): a count of
 * proxies (`1`: one load balancer), or the proxies' addresses and networks (`10.0.0.0/8, 192.0.2.7`).
 * Default none: the socket's address is the client, and `X-Forwarded-For`, which any client can set, is ignored.
 */
export type TrustedProxies = { hops: number } | { networks: BlockList };

/** The header the server stamps on every request it hands on (any copy sent by a client is replaced). */
export const CLIENT_IP_HEADER = "x-payments-client-ip";

const family = (address: string) => (isIP(address) === 6 ? "ipv6" : "ipv4");

/** `::ffff:192.0.2.1` (IPv4 on a dual-stack socket) is `192.0.2.1`. */
function normalize(address: string): string {
  const trimmed = address.trim();
  return trimmed.startsWith("::ffff:") && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}

/** Parses `TRUSTED_PROXIES`; throws a message naming the bad entry. Empty means none. */
export function parseTrustedProxies(value: string | undefined): TrustedProxies | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 10)
      throw new Error("must be a hop count from 0 to 10, or a list of addresses and CIDR networks");
    return hops === 0 ? undefined : { hops };
  }
  const networks = new BlockList();
  for (const entry of text.split(",").map((part) => part.trim())) {
    const [address = "", prefix, extra] = entry.split("/");
    const kind = isIP(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    const maxBits = kind === 6 ? 128 : 32;
    if (!kind || extra !== undefined || (bits !== undefined && (!/^\d+$/.test(prefix!) || bits > maxBits)))
      throw new Error(`"${entry}" is not an IP address or CIDR network`);
    if (bits === undefined) networks.addAddress(address, family(address));
    else networks.addSubnet(address, bits, family(address));
  }
  return { networks };
}

/**
 * The client's address: the socket's, unless trusted proxies stand in front. Then the hops are read from the
 * right (the socket, then `X-Forwarded-For` from its last entry back), skipping trusted ones; the first
 * untrusted hop is the client. Entries left of it were written by the client and are never believed.
 */
export function resolveClientIp(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: TrustedProxies | undefined,
): string {
  const socket = normalize(socketAddress ?? "") || "unknown";
  if (!trusted) return socket;
  const forwarded = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? ""))
    .split(",")
    .map(normalize)
    .filter(Boolean);
  const chain = [...forwarded, socket];
  let index = chain.length - 1;
  if ("hops" in trusted) index = Math.max(0, chain.length - 1 - trusted.hops);
  else
    while (index > 0 && isIP(chain[index]!) && trusted.networks.check(chain[index]!, family(chain[index]!)))
      index -= 1;
  // A hop that is not an address was not written by a proxy: the trusted hop to its right is the client.
  while (index < chain.length - 1 && !isIP(chain[index]!)) index += 1;
  return chain[index]!;
}

/** The address the server stamped on the request (see CLIENT_IP_HEADER); used for every per-IP limit. */
export function clientIp(headers: { get(name: string): string | null }): string {
  return headers.get(CLIENT_IP_HEADER) || "unknown";
}

/** Whether the connection's peer is a trusted proxy, whose forwarded headers may be believed. */
export function isTrustedPeer(
  socketAddress: string | undefined,
  trusted: TrustedProxies | undefined,
): boolean {
  if (!trusted) return false;
  if ("hops" in trusted) return true;
  const address = normalize(socketAddress ?? "");
  return isIP(address) !== 0 && trusted.networks.check(address, family(address));
}

/**
 * The client's User-Agent as it sent it. Node reads header bytes as Latin-1, so a UTF-8 agent ("Zürich") came
 * out as mojibake; its bytes are read again as UTF-8 when they are valid UTF-8, and kept as they came otherwise.
 */
export function clientUserAgent(headers: { get(name: string): string | null }): string | null {
  const raw = headers.get("user-agent");
  if (raw === null || !/[\u0080-\u00ff]/.test(raw)) return raw;
  // Above U+00FF it was decoded already (a fetch Headers object built from text): leave it.
  if (/[^\u0000-\u00ff]/.test(raw)) return raw;
  const bytes = Buffer.from(raw, "latin1");
  const text = bytes.toString("utf8");
  return Buffer.from(text, "utf8").equals(bytes) ? text : raw;
}
