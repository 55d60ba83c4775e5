// The `payments` CLI across a crash, and its lists: `listen` killed with SIGKILL in the middle of a burst of
// 30 payments and started again a second later forwards every one (it kept its cursor on disk; before, the
// cursor lived in the process and a restart missed 3 or 4); --from-now and --after choose the start; `events
// list` and `customers list` print ISO UTC times; `logs tail` leaves out its own polling.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";
import { runCli, startCli, type RunningCli } from "../support/cli-process";
import { WebhookReceiver } from "../support/webhook-receiver";

const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const { tokens } = inject("data");
const receiver = new WebhookReceiver();
const receiverPort = Number(serverEnv.TEST_RECEIVER_PORT) + 7;
const env = { apiUrl: baseUrl, apiKey: tokens.isolation };
const running: RunningCli[] = [];

beforeAll(() => receiver.listen(receiverPort));
afterAll(async () => {
  for (const cli of running) await cli.stop();
  await receiver.close();
});

async function createPayment(customer?: string): Promise<number> {
  const created = await callApi(baseUrl, "/api/payments", {
    token: tokens.isolation,
    json: { amount: "2.00", customer_id: customer },
  });
  expect(created.status).toBe(201);
  return Number(created.headers.get("location")!.split("/").at(-1));
}

/** `payments listen --json` for payment.pending events, with the config directory (and cursor) given. */
async function listen(route: string, configDir: string, extra: string[] = []): Promise<RunningCli> {
  const forwardTo = `http://127.0.0.1:${receiverPort}/${route}`;
  const cli = startCli(
    ["listen", "--forward-to", forwardTo, "--events", "payment.pending", "--json", ...extra],
    {
      ...env,
      configDir,
    },
  );
  running.push(cli);
  await cli.waitForLine((line) => line.type === "connected");
  return cli;
}

const paymentsAt = (route: string) => receiver.on(`/${route}`).map((hook) => hook.payload.data.id);

describe("payments listen after a crash", () => {
  it("killed with SIGKILL mid-burst of 30 and started 1 s later: all 30 forwarded, none missed", async () => {
    const configDir = mkdtempSync(path.join(tmpdir(), "payments-resume-"));
    const secret = runCli(
      ["listen", "--forward-to", `http://127.0.0.1:${receiverPort}/crash`, "--print-secret"],
      {
        ...env,
        configDir,
      },
    ).stdout.trim();
    receiver.expectSecret("/crash", secret);
    const first = await listen("crash", configDir);
    const created: number[] = [];
    const burst = (async () => {
      for (let index = 0; index < 30; index++) created.push(await createPayment());
    })();
    await first.waitForLine(() => first.lines().filter((line) => line.type === "forwarded").length >= 8);
    await first.kill();
    const forwardedBefore = first.lines().filter((line) => line.type === "forwarded").length;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const second = await listen("crash", configDir);
    await burst;
    await receiver.waitFor("/crash", () => created.every((id) => paymentsAt("crash").includes(id)), 60_000);
    // A little longer: anything sent twice would arrive now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const received = paymentsAt("crash");
    expect(new Set(received)).toEqual(new Set(created));
    expect(receiver.on("/crash").every((hook) => hook.verified)).toBe(true);
    // Each once, but for the event whose forward was under way when the process died, if one was: its
    // receipt was not known, so the next run sends it again (at-least-once; receivers dedupe by webhook-id).
    const repeated = received.filter((id, index) => received.indexOf(id) !== index);
    expect(repeated.length).toBeLessThanOrEqual(1);
    const resumed = second.lines().find((line) => line.type === "connected");
    expect(resumed?.resumed_after).toMatch(/^evt_/);
    expect(forwardedBefore).toBeGreaterThanOrEqual(8);
    await second.stop();
  });

  it("--from-now skips what came while no listen ran; --after starts after the event given", async () => {
    const configDir = mkdtempSync(path.join(tmpdir(), "payments-resume-"));
    const before = await listen("choose", configDir);
    const seen = await createPayment();
    await before.waitForLine((line) => line.type === "forwarded");
    await before.stop();
    const missed = await createPayment();
    const fromNow = await listen("choose-now", configDir, ["--from-now"]);
    const fresh = await createPayment();
    await fromNow.waitForLine((line) => line.type === "forwarded");
    await fromNow.stop();
    expect(paymentsAt("choose-now")).toEqual([fresh]);
    const events = (await callApi(baseUrl, `/api/events?payment_id=${seen}`, { token: tokens.isolation }))
      .body as {
      data: Array<{ id: string; event: string }>;
    };
    const seenEvent = events.data.find((event) => event.event === "payment.pending")!;
    const fromSeen = await listen("choose-after", configDir, ["--after", seenEvent.id]);
    await receiver.waitFor("/choose-after", () => paymentsAt("choose-after").includes(fresh));
    await fromSeen.stop();
    expect(paymentsAt("choose-after").slice(0, 2)).toEqual([missed, fresh]);
    expect(runCli(["listen", "--forward-to", "http://127.0.0.1:1/x", "--after", "nope"], env)).toMatchObject({
      code: 2,
    });
  });
});

describe("payments events list and customers list", () => {
  it("print newest first, with ISO UTC times; --json gives one object per line", async () => {
    const customer = `cus_cli_${Date.now()}`;
    const id = await createPayment(customer);
    const listed = runCli(["events", "list", "--payment", String(id)], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(
        `^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z  evt_\\S+  payment\\.pending\\s+${id} 2\\.00 USD$`,
        "m",
      ),
    );
    const json = runCli(["events", "list", "--limit", "1", "--json"], env);
    expect(json.stdout.trim().split("\n")).toHaveLength(1);
    const customers = runCli(["customers", "list", "--limit", "3"], env);
    expect(customers.stdout.split("\n")[0]).toMatch(
      new RegExp(
        `^${customer}  1 payment  completed (—|\\d+\\.\\d{2} USD)  refunded (—|0\\.00 USD)  last \\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z$`,
      ),
    );
    expect(runCli(["customers", "list", "--limit", "0"], env).code).toBe(2);
  });

  it("logs tail prints in time order and leaves out its own polling", async () => {
    const tail = startCli(["logs", "tail", "--json"], env);
    running.push(tail);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const made = [await createPayment(), await createPayment(), await createPayment()];
    await tail.waitForLine(
      (line) => typeof line.path === "string" && line.method === "POST" && line.status === 201,
      30_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 6000));
    await tail.stop();
    const lines = tail.lines().filter((line) => line.type === "request");
    expect(lines.filter((line) => String(line.path).startsWith("/api/request-logs"))).toEqual([]);
    const times = lines.map((line) => Date.parse(String(line.created_at)));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(lines.filter((line) => line.method === "POST").length).toBeGreaterThanOrEqual(made.length);
  });
});
