import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * The lowest port the kernel hands out on its own (to outgoing connections and `listen(0)`); the default
 * range is 32768-60999. A test port chosen inside it can be taken between the check and the server's listen:
 * CI lost a run to "Port 38386 is in use" that way.
 */
function ephemeralRangeStart(): number {
  try {
    const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/);
    return Number(low) || 32768;
  } catch {
    return 32768;
  }
}

/**
 * A TCP port nothing listens on now, below the ephemeral range, so neither concurrent test runs nor the
 * kernel's own choices take it. Synchronous, for config files; (port, port + 1 and port + 91) are all free:
 * the server, the worker's metrics and the webhook receiver.
 */
export function findFreePort(): number {
  const low = 10000;
  const high = Math.max(low + 1000, ephemeralRangeStart() - 100);
  const script = `
    const net = require("node:net");
    (async () => {
      for (;;) {
        const port = ${low} + Math.floor(Math.random() * ${high - low});
        const free = await Promise.all([0, 1, 91].map((offset) => new Promise((resolve) => {
          const server = net.createServer().once("error", () => resolve(false)).listen(port + offset, "127.0.0.1", () => server.close(() => resolve(true)));
        })));
        if (free.every(Boolean)) { process.stdout.write(String(port)); return; }
      }
    })();`;
  return Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
}
