import { execFileSync } from "node:child_process";

/**
 * A TCP port nothing listens on now, so concurrent test runs on one machine never collide. Synchronous, for
 * config files; returns a pair (server, server + 1) that are both free, plus room above for receivers.
 */
export function findFreePort(): number {
  const script = `
    const net = require("node:net");
    (async () => {
      for (;;) {
        const port = 20000 + Math.floor(Math.random() * 30000);
        const free = await Promise.all([0, 1, 91].map((offset) => new Promise((resolve) => {
          const server = net.createServer().once("error", () => resolve(false)).listen(port + offset, "127.0.0.1", () => server.close(() => resolve(true)));
        })));
        if (free.every(Boolean)) { process.stdout.write(String(port)); return; }
      }
    })();`;
  return Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
}
