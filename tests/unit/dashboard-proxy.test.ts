import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, expect, it } from "vitest";
import { dashboardProxy, keepConnectionsForProxy } from "@/lib/platform/dashboard-proxy";

const socketPath = path.join(tmpdir(), `payments-proxy-test-${process.pid}.sock`);
const servers: http.Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Each connection the dashboard took, and whether the other side (the proxy) ended it. */
type Seen = { closed: boolean; endedByProxy: boolean };

it("only the proxy closes an idle connection: one idle past Node's default 5 s keep-alive still serves", async () => {
  const seen: Seen[] = [];
  const dashboard = http.createServer((_request, response) => response.end("ok"));
  keepConnectionsForProxy(dashboard);
  dashboard.on("connection", (socket) => {
    const connection: Seen = { closed: false, endedByProxy: false };
    seen.push(connection);
    // The proxy closing sends an end first; the dashboard closing one itself would not.
    socket.once("end", () => (connection.endedByProxy = true));
    socket.once("close", () => (connection.closed = true));
  });
  servers.push(dashboard);
  await new Promise<void>((resolve) => dashboard.listen(socketPath, resolve));
  const idleMs = 15_000;
  const front = http.createServer(dashboardProxy(socketPath, idleMs));
  servers.push(front);
  front.listen(0, "127.0.0.1");
  await once(front, "listening");
  const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}/login`;

  expect(await (await fetch(url)).text()).toBe("ok");
  await sleep(6_000);
  expect(seen).toEqual([{ closed: false, endedByProxy: false }]);
  expect(await (await fetch(url)).text()).toBe("ok");
  expect(seen).toHaveLength(1);

  // Left idle, the proxy ends it (the dashboard sees its end first), within a wide margin of idleMs.
  await expect.poll(() => seen[0]!.closed, { timeout: idleMs * 3, interval: 500 }).toBe(true);
  expect(seen[0]!.endedByProxy).toBe(true);
}, 90_000);
