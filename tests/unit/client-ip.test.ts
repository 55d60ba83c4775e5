import { describe, expect, it } from "vitest";
import { parseTrustedProxies, resolveClientIp } from "@/lib/platform/client-ip";

describe("the client's address", () => {
  it("is the socket's without TRUSTED_PROXIES: X-Forwarded-For is anyone's to set", () => {
    expect(resolveClientIp("203.0.113.9", "1.2.3.4", undefined)).toBe("203.0.113.9");
    expect(resolveClientIp("::ffff:203.0.113.9", undefined, undefined)).toBe("203.0.113.9");
    expect(resolveClientIp(undefined, undefined, undefined)).toBe("unknown");
  });

  it("with a hop count, is the right-most hop the trusted proxies did not add", () => {
    const one = parseTrustedProxies("1");
    // The client prepended a forged hop; the load balancer appended the real address.
    expect(resolveClientIp("10.0.0.2", "6.6.6.6, 198.51.100.7", one)).toBe("198.51.100.7");
    expect(resolveClientIp("10.0.0.2", "198.51.100.7", parseTrustedProxies("2"))).toBe("198.51.100.7");
    // Fewer hops than trusted: the left-most there is.
    expect(resolveClientIp("10.0.0.2", undefined, one)).toBe("10.0.0.2");
    expect(resolveClientIp("10.0.0.2", ["6.6.6.6", "198.51.100.7"], one)).toBe("198.51.100.7");
  });

  it("with networks, skips trusted hops from the right and stops at the first untrusted one", () => {
    const trusted = parseTrustedProxies("10.0.0.0/8, 192.0.2.7, 2001:db8::/32");
    expect(resolveClientIp("10.1.2.3", "6.6.6.6, 198.51.100.7, 192.0.2.7", trusted)).toBe("198.51.100.7");
    expect(resolveClientIp("2001:db8::1", "198.51.100.7", trusted)).toBe("198.51.100.7");
    // A socket that is not a trusted proxy is the client, whatever the header says.
    expect(resolveClientIp("203.0.113.9", "6.6.6.6", trusted)).toBe("203.0.113.9");
    // Garbage where an address should be: the trusted hop that reported it stands in.
    expect(resolveClientIp("10.1.2.3", "not-an-ip", trusted)).toBe("10.1.2.3");
  });

  it("refuses a malformed TRUSTED_PROXIES, naming the entry", () => {
    expect(parseTrustedProxies("")).toBeUndefined();
    expect(parseTrustedProxies("0")).toBeUndefined();
    expect(() => parseTrustedProxies("11")).toThrow(/hop count/);
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow(/"10.0.0.0\/33"/);
    expect(() => parseTrustedProxies("10.0.0.0/8, example.com")).toThrow(/"example.com"/);
    expect(() => parseTrustedProxies("10.0.0.0/8/1")).toThrow(/not an IP/);
  });
});
