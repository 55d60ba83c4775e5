// When every API process dies at once, the port is never closed: the primary keeps the listening socket, and
// a connection made while the replacements boot waits for one (or gets a JSON 503); none is refused. With
// node:cluster's own round robin the port refused connections for 9.1 s. PostgreSQL only: `npm start` runs
// API processes beside the dashboard's only there (PGlite admits a single process).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { startServerProcess } from "../support/test-server";

const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const { tokens } = inject("data");

/** The server's API processes: the primary's children but its dashboard process. */
function apiProcesses(primary: number, output: string): number[] {
  const dashboard = Number(/Dashboard process (\d+) listening/.exec(output)?.[1]);
  return execFileSync("ps", ["-o", "pid=", "--ppid", String(primary)], { encoding: "utf8" })
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0 && pid !== dashboard);
}

/** The V8 semi-space flag a process was started with (the last one counts), if any. */
function semiSpaceFlag(pid: number): string | undefined {
  const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  return argv.filter((arg) => arg.startsWith("--max-semi-space-size")).at(-1);
}

describe.skipIf(!process.env.DATABASE_URL)("every API process killed at once", () => {
  it("no connection is refused while they are replaced; each is answered 200 or a JSON 503", async () => {
    const server = await startServerProcess(Number(new URL(baseUrl).port) + 33, {
      ...(serverEnv as NodeJS.ProcessEnv),
      WEB_CONCURRENCY: "2",
    });
    try {
      const outcomes: Array<{ outcome: string; startedAt: number; ms: number }> = [];
      let running = true;
      // A new connection per request, as after the processes' keep-alive connections died with them.
      const load = async () => {
        while (running) {
          const startedAt = Date.now();
          const outcome = await fetch(`${server.baseUrl}/api/payments?perPage=1`, {
            headers: { Authorization: `Bearer ${tokens.api}`, Connection: "close" },
            signal: AbortSignal.timeout(30_000),
          }).then(
            async (response) =>
              response.status === 503 ? `503 ${await response.text()}` : String(response.status),
            (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
          );
          outcomes.push({ outcome, startedAt, ms: Date.now() - startedAt });
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const loops = [load(), load(), load()];
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const killed = apiProcesses(server.pid, server.output());
      expect(killed).toHaveLength(2);
      // The API processes' young generation (lib/platform/web-cluster.ts); the dashboard's is left as it was.
      const dashboard = Number(/Dashboard process (\d+) listening/.exec(server.output())?.[1]);
      expect(killed.map(semiSpaceFlag)).toEqual(["--max-semi-space-size=64", "--max-semi-space-size=64"]);
      expect(semiSpaceFlag(dashboard)).not.toBe("--max-semi-space-size=64");
      for (const pid of killed) process.kill(pid, "SIGKILL");
      const killedAt = Date.now();
      // Until the replacements have answered requests sent after the kill.
      const deadline = Date.now() + 60_000;
      const answeredAfter = () =>
        outcomes.filter(({ outcome, startedAt }) => outcome === "200" && startedAt > killedAt + 100).length;
      while (answeredAfter() < 10)
        if (Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
        else throw new Error("the API processes were not replaced");
      running = false;
      await Promise.all(loops);
      const seen = [...new Set(outcomes.map(({ outcome }) => outcome))];
      console.info("outcomes while the API processes were replaced", seen, {
        requests: outcomes.length,
        longestWaitMs: Math.max(...outcomes.map(({ ms }) => ms)),
      });
      expect(seen).not.toContain("ECONNREFUSED");
      // A request under way on a killed process's connection dies with it; every one sent after is answered.
      const after = outcomes
        .filter(({ startedAt }) => startedAt > killedAt + 100)
        .map(({ outcome }) => outcome);
      expect(after.filter((outcome) => outcome !== "200" && !outcome.startsWith("503 "))).toEqual([]);
      expect(after.at(-1)).toBe("200");
      // Their replacements are forked with the same flags.
      const replacements = apiProcesses(server.pid, server.output());
      expect(replacements.map(semiSpaceFlag)).toEqual(killed.map(() => "--max-semi-space-size=64"));
      for (const outcome of after.filter((each) => each.startsWith("503 ")))
        expect(JSON.parse(outcome.slice(4))).toEqual({ message: "Service Unavailable" });
    } finally {
      await server.stop();
    }
  });
});
