// `npm run bench:stream`: the event stream and `payments listen` on PostgreSQL. (1) Latency from a payment's
// commit (its POST answered) to the CLI forwarding its payment.pending to a local receiver, at 100 events/s;
// (2) the memory 200 idle streams add to the server. Needs `npm run build`. BENCH_DATABASE_URL is recreated.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { childPids } from "./cpu";
import {
  appServerEnv,
  freshDatabase,
  markdownTable,
  root,
  rssMb,
  SERVER_NODE_FLAGS,
  startScript,
} from "./harness";
import { seedBenchmark } from "./seed";

const databaseUrl =
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/payments_bench_stream";
const ratePerSecond = Number(process.env.BENCH_EVENTS_PER_SECOND ?? 100);
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const idleStreams = Number(process.env.BENCH_STREAMS ?? 200);
const port = 4400;
const receiverPort = 4401;

process.env.DATABASE_URL = databaseUrl;
await freshDatabase(databaseUrl);
const seed = await seedBenchmark(databaseUrl, 1000, 4);
const server = await startScript(
  "scripts/server.ts",
  appServerEnv(databaseUrl, port, { EVENT_STREAMS_PER_TOKEN: String(idleStreams + 10) }),
  port,
  "/api/openapi.json",
  SERVER_NODE_FLAGS,
);
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

try {
  // (1) The receiver notes when each payment's event arrives; the CLI forwards to it.
  const arrivals = new Map<number, number>();
  const receiver = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const payload = JSON.parse(body) as { event: string; data: { id: number } };
      if (payload.event === "payment.pending") arrivals.set(payload.data.id, performance.now());
      response.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(receiverPort, "127.0.0.1", () => resolve()));
  const cli = spawn(
    process.execPath,
    [
      path.join(root, "packages/cli/bin/payments.js"),
      "listen",
      "--forward-to",
      `http://127.0.0.1:${receiverPort}/`,
      "--json",
    ],
    {
      env: {
        ...process.env,
        PAYMENTS_API_URL: server.baseUrl,
        PAYMENTS_API_KEY: seed.tokens[0],
        NO_COLOR: "1",
      },
    },
  );
  await new Promise<void>((resolve) =>
    cli.stdout.on("data", (chunk: Buffer) => chunk.includes('"connected"') && resolve()),
  );

  const committed = new Map<number, number>();
  const creates: Array<Promise<void>> = [];
  const total = ratePerSecond * seconds;
  const started = performance.now();
  for (let index = 0; index < total; index++) {
    // Paced by the clock, not by answers: 100 a second whatever each one takes.
    const due = started + (index * 1000) / ratePerSecond;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    creates.push(
      fetch(`${server.baseUrl}/api/payments`, {
        method: "POST",
        headers: { Authorization: `Bearer ${seed.tokens[1]}`, "Content-Type": "application/json" },
        body: JSON.stringify({ amount: "1.00" }),
      }).then((response) => {
        committed.set(Number(response.headers.get("location")!.split("/").at(-1)), performance.now());
      }),
    );
  }
  await Promise.all(creates);
  const deadline = performance.now() + 30_000;
  while (arrivals.size < total && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  cli.kill("SIGINT");
  receiver.close();
  const latencies = [...committed].map(([id, at]) => (arrivals.get(id) ?? Number.NaN) - at);
  const delivered = latencies.filter((value) => Number.isFinite(value));

  // (2) 200 idle streams held open, the server's processes measured before and after.
  const serverRss = () =>
    [server.process.pid!, ...childPids(server.process.pid!)].reduce((sum, pid) => sum + rssMb(pid), 0);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const before = serverRss();
  const streams = await Promise.all(
    Array.from({ length: idleStreams }, async (_, index) => {
      const abort = new AbortController();
      const response = await fetch(`${server.baseUrl}/api/events/stream`, {
        headers: { Authorization: `Bearer ${seed.tokens[2 + (index % 2)]}` },
        signal: abort.signal,
      });
      if (response.status !== 200) throw new Error(`A stream was refused: ${response.status}`);
      return abort;
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const after = serverRss();
  for (const stream of streams) stream.abort();

  const report = [
    `Event stream on PostgreSQL: ${total} payments created at ${ratePerSecond}/s through the API, each payment.pending forwarded by \`payments listen\` to a local receiver.`,
    markdownTable([
      {
        events: total,
        forwarded: delivered.length,
        "p50 ms": Math.round(percentile(delivered, 50)),
        "p99 ms": Math.round(percentile(delivered, 99)),
        "max ms": Math.round(Math.max(...delivered)),
      },
    ]),
    `${idleStreams} idle streams: the server's processes went from ${before.toFixed(1)} MB to ${after.toFixed(1)} MB resident, ${(((after - before) * 1024) / idleStreams).toFixed(1)} KB a stream.`,
  ].join("\n\n");
  mkdirSync(path.join(root, "bench/results"), { recursive: true });
  writeFileSync(path.join(root, "bench/results/event-stream.md"), `${report}\n`);
  console.log(`\n${report}`);
} finally {
  await server.stop();
}
