// The shell samples the docs show, run as written: the very files the docs' marked blocks are held to
// (scripts/check-doc-samples.mjs), with bash, against a server of this file's own, with PAYMENTS_API_URL and
// PAYMENTS_API_KEY set as the docs ask the reader to. `listen` runs until stopped, as in the reader's
// terminal: it is stopped with ^C (SIGINT) once the events the other terminal's `trigger` caused are
// forwarded. The Playwright sample (docs/samples/checkout.spec.ts) runs in Playwright's docs-samples project.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi } from "../support/api-client";
import { findFreePort } from "../support/free-port";
import { separateDatabase } from "../support/test-database";
import { startTestServer, type TestServer } from "../support/test-server";
import { WebhookReceiver } from "../support/webhook-receiver";

const root = path.resolve(import.meta.dirname, "../..");
const SAMPLES = path.join(root, "docs/samples");
/** Each shell sample, and the test below that runs it. */
const RUN_HERE = ["cli-listen.sh", "cli-trigger.sh", "inbox-payment.sh", "cli-sandboxes.sh", "test-clock.sh"];

let server: TestServer;
let database: Awaited<ReturnType<typeof separateDatabase>> | undefined;
const receiver = new WebhookReceiver();
const running: RunningSample[] = [];

beforeAll(async () => {
  database = await separateDatabase("doc_samples");
  server = await startTestServer("doc-samples", findFreePort(), {
    // Nothing settles by itself: the events are the ones the samples cause.
    PAYMENTS_AUTO_SETTLE_MS: "0",
    WORKER_MODE: "inline",
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  await receiver.listen(Number(server.env.TEST_RECEIVER_PORT));
});
afterAll(async () => {
  for (const sample of running) await sample.interrupt();
  await server?.stop();
  await receiver.close();
  await database?.drop();
});

type RunningSample = {
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code once bash and everything it started have ended. */
  exited: Promise<number | null>;
  /** ^C, as in a terminal: SIGINT to the sample's whole process group (bash, npx, the CLI). */
  interrupt: () => Promise<number | null>;
};

/** The environment a reader's shell has: no login but the one given, colour off (output is asserted on). */
function shellEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", ...extra };
  for (const name of ["PAYMENTS_API_URL", "PAYMENTS_API_KEY", "PAYMENTS_ACCOUNT_KEY", "FORWARD_TO", "RUN_ID"])
    if (!(name in extra)) delete env[name];
  return env;
}

/** `bash -e docs/samples/<name>` from the repository's root, as pasted into a terminal there. */
function runSample(name: string, env: NodeJS.ProcessEnv): RunningSample {
  const child = spawn("bash", ["-e", path.join("docs/samples", name)], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so ^C reaches npx and the CLI as it would in a terminal.
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const sample: RunningSample = {
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async interrupt() {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, "SIGINT");
        } catch {
          // Already gone.
        }
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, "SIGKILL");
          } catch {
            // Already gone.
          }
        }, 10_000);
        await exited;
        clearTimeout(timer);
      }
      return exited;
    },
  };
  running.push(sample);
  return sample;
}

async function waitForOutput(sample: RunningSample, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(sample.stdout())) {
    if (Date.now() > deadline)
      throw new Error(
        `The sample never printed ${pattern}.\nstdout:\n${sample.stdout()}\nstderr:\n${sample.stderr()}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("docs/samples, the shell samples", () => {
  it("every shell sample in docs/samples is run by this file", () => {
    const shellSamples = readdirSync(SAMPLES).filter((name) => name.endsWith(".sh"));
    expect(shellSamples.sort()).toEqual([...RUN_HERE].sort());
  });

  it("docs/api.md, the CLI: log in, print the secret and listen in one terminal; trigger in another, which has only the login", async () => {
    const configHome = mkdtempSync(path.join(tmpdir(), "payments-doc-samples-"));
    const forwardTo = `http://127.0.0.1:${server.env.TEST_RECEIVER_PORT}/webhooks`;
    const listen = runSample(
      "cli-listen.sh",
      shellEnv({
        XDG_CONFIG_HOME: configHome,
        PAYMENTS_API_URL: server.baseUrl,
        PAYMENTS_API_KEY: server.data.tokens.api,
        FORWARD_TO: forwardTo,
      }),
    );
    // Ready, then connected: from here every event is forwarded.
    await waitForOutput(listen, /connected/);
    const output = listen.stdout();
    expect(output).toContain(`Logged in to ${server.baseUrl}`);
    const secret = /^whsec_\S+$/m.exec(output)?.[0];
    expect(secret, output).toBeDefined();
    expect(statSync(path.join(configHome, "payments/config.json")).mode & 0o777).toBe(0o600);
    receiver.expectSecret("/webhooks", secret!);

    // The second terminal has none of the first's variables: the login saved above is what it uses.
    const trigger = runSample("cli-trigger.sh", shellEnv({ XDG_CONFIG_HOME: configHome }));
    expect([await trigger.exited, trigger.stderr()]).toEqual([0, ""]);
    const paymentId = Number(/payment (\d+) created/.exec(trigger.stdout())?.[1]);
    expect(paymentId, trigger.stdout()).toBeGreaterThan(0);

    const ofPayment = (hooks: typeof receiver.received) =>
      hooks.filter((hook) => {
        const data = hook.payload.data;
        return data.id === paymentId || data.payment_id === paymentId;
      });
    const hooks = await receiver.waitFor("/webhooks", (received) =>
      ofPayment(received).some((hook) => hook.payload.event === "refund.succeeded"),
    );
    const forwarded = ofPayment(hooks);
    // The four events docs/api.md promises, each once, in order.
    expect(forwarded.map((hook) => hook.payload.event)).toEqual([
      "payment.pending",
      "payment.completed",
      "refund.created",
      "refund.succeeded",
    ]);
    // Signed with the secret the sample printed, verified with the official library.
    expect(forwarded.every((hook) => hook.verified)).toBe(true);
    await waitForOutput(listen, /<-- \[200\] POST .*\/webhooks/);

    // ^C ends listen, and with it the first terminal's sample.
    await listen.interrupt();
    expect(listen.stderr()).not.toMatch(/Error|at .*\.js:\d+/);
    rmSync(configHome, { recursive: true, force: true });
  });

  it("docs/testing.md, a sandbox for a CI run: made with the account key, listed, and deleted", async () => {
    const configHome = mkdtempSync(path.join(tmpdir(), "payments-doc-samples-"));
    const runId = String(Date.now());
    const sample = runSample(
      "cli-sandboxes.sh",
      shellEnv({
        XDG_CONFIG_HOME: configHome,
        PAYMENTS_API_URL: server.baseUrl,
        PAYMENTS_ACCOUNT_KEY: server.data.tokens.account,
        RUN_ID: runId,
      }),
    );
    expect([await sample.exited, sample.stderr()]).toEqual([0, ""]);
    const id = /^(\d+)\s+ci-/m.exec(sample.stdout())?.[1];
    expect(sample.stdout(), sample.stdout()).toMatch(new RegExp(`^${id}\\s+ci-${runId}\\s`, "m"));
    expect(sample.stdout()).toContain(`Sandbox ${id} deleted, with all its data.`);
    // The tests' step, with the sandbox's own key: a new sandbox has no balance yet.
    expect(sample.stdout()).toContain("No balance yet.");
    const left = await callApi(server.baseUrl, "/api/sandboxes", { token: server.data.tokens.account });
    expect(
      (left.body as { data: Array<{ name: string }> }).data.map((sandbox) => sandbox.name),
    ).not.toContain(`ci-${runId}`);
    rmSync(configHome, { recursive: true, force: true });
  });

  it("docs/testing.md, a month on a test clock: the payment made at the clock's start, a month on it is available", async () => {
    const configHome = mkdtempSync(path.join(tmpdir(), "payments-doc-samples-"));
    const now = new Date();
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
    const sample = runSample(
      "test-clock.sh",
      shellEnv({
        XDG_CONFIG_HOME: configHome,
        PAYMENTS_API_URL: server.baseUrl,
        PAYMENTS_ACCOUNT_KEY: server.data.tokens.clockAccount,
        RUN_ID: String(Date.now()),
        CLOCK_START: start.toISOString().slice(0, 10),
      }),
    );
    expect([await sample.exited, sample.stderr()]).toEqual([0, ""]);
    const monthOn = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    // 100.00 less the fee (2.9% + 0.30): pending at the start, available a month on.
    expect(sample.stdout()).toMatch(
      /USD\s+available 0(\.00)?\s+pending 96\.80[^]*USD\s+available 96\.80\s+pending 0(\.00)?\n/,
    );
    expect(sample.stdout()).toContain(`"now":"${monthOn.toISOString()}","test_clock":true`);
    rmSync(configHome, { recursive: true, force: true });
  });

  it("docs/webhooks.md, the QA recipe's curl: the payment is made and the inbox captures payment.pending, verified", async () => {
    const api = (urlPath: string, request: Parameters<typeof callApi>[2] = {}) =>
      callApi(server.baseUrl, urlPath, { ...request, token: server.data.tokens.api });
    const inbox = await api("/api/webhook-endpoints", { json: { kind: "inbox" } });
    expect(inbox.status, inbox.text).toBe(201);
    const endpointId = (inbox.body as { data: { id: number } }).data.id;

    const curl = runSample(
      "inbox-payment.sh",
      shellEnv({ PAYMENTS_API_URL: server.baseUrl, PAYMENTS_API_KEY: server.data.tokens.api }),
    );
    expect(await curl.exited, curl.stderr()).toBe(0);
    expect(curl.stdout()).toBe('{"message":"Payment created successfully"}');

    const deadline = Date.now() + 30_000;
    for (;;) {
      const captures = await api(`/api/webhook-endpoints/${endpointId}/inbox`);
      const pending = (
        captures.body as {
          data: Array<{ body: string; verification: { valid: boolean }; response_status: number }>;
        }
      ).data.find((capture) => capture.body.includes('"payment.pending"'));
      if (pending) {
        expect(pending.verification.valid).toBe(true);
        expect(pending.response_status).toBe(200);
        expect((JSON.parse(pending.body) as { data: { amount: string } }).data.amount).toBe("25.00");
        break;
      }
      if (Date.now() > deadline) throw new Error(`No payment.pending in the inbox: ${captures.text}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
});
