import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * postgres.js keeps its pool's connections in these queues (patches/postgres+3.4.9.patch). Unpatched, a
 * queue that never empties (every connection busy: any load above the pool size) left a hole per `shift()`
 * and `remove()` searched all of them, so each query cost more than the last: the bare benchmark server fell
 * from 5,100 to 3,000 requests/s over 50 s of load (porsager/postgres#747). Counted, not timed: the length of
 * every array `remove()` searches.
 */
type Queue<T> = { readonly length: number; push(x: T): T; shift(): T; remove(x: T): T | null };
type QueueFactory = <T>(initial?: T[]) => Queue<T>;

const installed = path.join(process.cwd(), "node_modules/postgres");
const builds: Array<[string, () => Promise<QueueFactory>]> = [
  [
    "ESM (what the app loads)",
    async () =>
      ((await import(pathToFileURL(path.join(installed, "src/queue.js")).href)) as { default: QueueFactory })
        .default,
  ],
  [
    "CommonJS",
    () => Promise.resolve(createRequire(import.meta.url)(path.join(installed, "cjs/src/queue.js"))),
  ],
];

describe.each(builds)("postgres.js connection queue, %s build", (_name, load) => {
  it("stays as short as its contents while it never empties, in order", async () => {
    const Queue = await load();
    const queue = Queue<string>();
    const connections = ["a", "b", "c", "d"];
    for (const connection of connections) queue.push(connection);
    const searched: number[] = [];
    const indexOf = Array.prototype.indexOf;
    Array.prototype.indexOf = function (this: unknown[], ...args: Parameters<typeof indexOf>) {
      searched.push(this.length);
      return indexOf.apply(this, args);
    };
    try {
      // The pool's steady state: the oldest busy connection takes the next query and goes to the back, and
      // now and then one finishes (removed from the middle) and comes back.
      for (let query = 0; query < 100_000; query++) {
        queue.push(queue.shift());
        const finished = connections[query % 4]!;
        if (query % 3 === 0 && queue.remove(finished) === finished) queue.push(finished);
      }
    } finally {
      Array.prototype.indexOf = indexOf;
    }
    expect(searched.length).toBeGreaterThan(30_000);
    expect(Math.max(...searched.slice(-1000))).toBeLessThan(200);
    expect(queue.length).toBe(4);
    const drained = [queue.shift(), queue.shift(), queue.shift(), queue.shift()];
    expect([...drained].sort()).toEqual(connections);
    expect(queue.length).toBe(0);
    expect(queue.remove("a")).toBeNull();
  });
});
