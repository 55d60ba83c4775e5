import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPrivateAddress } from "@/lib/webhooks/network-guard";
import { sendWebhook } from "@/lib/webhooks/send";
import { findFreePort } from "../support/free-port";
import { WebhookReceiver } from "../support/webhook-receiver";

// A listener that counts connections: a refused destination must never be connected to at all.
let connections = 0;
const listener = net.createServer((socket) => {
  connections++;
  socket.destroy();
});
const receiver = new WebhookReceiver();
let port = 0;
let receiverPort = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as net.AddressInfo).port;
  // A free port of its own: the port after the listener's may be taken by another server of the run.
  receiverPort = findFreePort();
  await receiver.listen(receiverPort);
});
afterAll(async () => {
  listener.close();
  await receiver.close();
});

const message = (url: string) => ({
  url,
  eventId: "evt_test",
  timestamp: new Date(),
  body: "{}",
  secrets: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
});
const production = { allowPrivateNetworks: false, timeoutMs: 2000 };

describe("SSRF guard in production", () => {
  it.each([
    ["plain http", () => `http://example.com:${port}/`, "Refused: plain http is not allowed in production."],
    ["loopback literal", () => `https://127.0.0.1:${port}/`, "Refused: 127.0.0.1 is a private address."],
    ["IPv6 loopback", () => `https://[::1]:${port}/`, "Refused: ::1 is a private address."],
    [
      "cloud metadata",
      () => "https://169.254.169.254/latest/meta-data",
      "Refused: 169.254.169.254 is a private address.",
    ],
    ["private range", () => "https://10.1.2.3/", "Refused: 10.1.2.3 is a private address."],
    [
      "a name that resolves to loopback",
      () => `https://localhost:${port}/`,
      "Refused: localhost resolves to the private address",
    ],
  ])("refuses %s without connecting", async (_name, url, error) => {
    const before = connections;
    const result = await sendWebhook(message(url()), production);
    expect(result.ok).toBe(false);
    expect(result.error).toContain(error);
    expect(result.status).toBeNull();
    expect(connections).toBe(before);
  });

  it("allows local receivers when WEBHOOKS_ALLOW_PRIVATE_NETWORKS is on (or outside production)", async () => {
    const result = await sendWebhook(message(`http://127.0.0.1:${receiverPort}/ok`), {
      allowPrivateNetworks: true,
      timeoutMs: 2000,
    });
    expect(result).toMatchObject({ ok: true, status: 200, error: null, excerpt: "ok" });
  });

  it.each([
    ["127.0.0.1", true],
    ["10.0.0.1", true],
    ["172.31.255.255", true],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["::1", true],
    ["fd00::1", true],
    ["fe80::1", true],
    ["::ffff:127.0.0.1", true],
    ["8.8.8.8", false],
    ["172.32.0.1", false],
    ["2606:4700:4700::1111", false],
  ])("classifies %s as private: %s", (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});
