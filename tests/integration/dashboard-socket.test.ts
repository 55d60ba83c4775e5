import { spawn } from "node:child_process";
import { existsSync, lstatSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { startServerProcess } from "../support/test-server";

const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const socketOf = (pid: number | string) => path.join(tmpdir(), `payments-dashboard-${pid}.sock`);
const planted: string[] = [];
const held: net.Server[] = [];

/** A socket left as a SIGKILLed server leaves it: the file of a process that is gone. Returns its path. */
async function plantStaleSocket(): Promise<string> {
  const child = spawn(
    process.execPath,
    [
      "-e",
      `const path = require("node:path").join(require("node:os").tmpdir(), "payments-dashboard-" + process.pid + ".sock");
       require("node:net").createServer().listen(path, () => console.log(path));`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const socket = await new Promise<string>((resolve) =>
    child.stdout.once("data", (line) => resolve(String(line).trim())),
  );
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  planted.push(socket);
  return socket;
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

/** A socket of a server that is running: here, this test process's own pid. */
async function holdLiveSocket(): Promise<string> {
  const socket = socketOf(process.pid);
  rmSync(socket, { force: true });
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  held.push(server);
  planted.push(socket);
  return socket;
}

afterAll(async () => {
  await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  for (const file of planted) rmSync(file, { force: true });
});

// `npm start` runs a dashboard process on a unix socket only on PostgreSQL (PGlite admits one process).
describe.skipIf(!process.env.DATABASE_URL)("the dashboard's unix socket is not left behind", () => {
  it("a start removes the sockets of servers that are gone, and keeps a live server's and other files", async () => {
    const stale = [await plantStaleSocket(), await plantStaleSocket()];
    const live = await holdLiveSocket();
    // A dead pid's name on a plain file (not a socket), and a name that is not the socket's: both kept.
    const plainFile = socketOf(await deadPid());
    const otherName = `${socketOf(await deadPid())}.keep`;
    for (const file of [plainFile, otherName]) writeFileSync(file, "");
    planted.push(plainFile, otherName);
    expect(stale.map((file) => lstatSync(file).isSocket())).toEqual([true, true]);

    const server = await startServerProcess(
      Number(new URL(baseUrl).port) + 7,
      serverEnv as NodeJS.ProcessEnv,
    );
    try {
      expect((await fetch(`${server.baseUrl}/login`)).status).toBe(200);
      expect(stale.map((file) => existsSync(file))).toEqual([false, false]);
      expect([live, plainFile, otherName].map((file) => existsSync(file))).toEqual([true, true, true]);
      for (const file of stale)
        expect(server.output()).toContain(`Removed ${file}, left by a server that is gone`);
      // The live socket still answers: nothing was done to it.
      const connected = await new Promise<boolean>((resolve) => {
        const client = net.connect(live, () => {
          client.end();
          resolve(true);
        });
        client.once("error", () => resolve(false));
      });
      expect(connected).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it("a dashboard process killed with SIGKILL, then the server stopped before it is replaced: no socket stays", async () => {
    const server = await startServerProcess(
      Number(new URL(baseUrl).port) + 8,
      serverEnv as NodeJS.ProcessEnv,
    );
    const [, pid, socket] = server.output().match(/Dashboard process (\d+) listening on (\S+)/)!;
    planted.push(socket!);
    expect(lstatSync(socket!).isSocket()).toBe(true);
    process.kill(Number(pid), "SIGKILL");
    // Within the primary's one-second restart delay, so no new dashboard process takes the socket over.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await server.stop();
    await expect(fetch(`${server.baseUrl}/healthz`)).rejects.toThrow();
    expect(existsSync(socket!)).toBe(false);
  });
});
