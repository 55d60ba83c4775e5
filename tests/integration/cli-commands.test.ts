// The `payments` CLI's everyday commands as a child process against the started server: `get` and `post`
// call any route with the stored key (a bad -d is refused before any request, a 404 exits 1), `payments
// list` and `refunds list` take the API's filters, `trigger` takes a customer, metadata and a return URL, a
// refusal is printed once per field, and counts agree with their nouns.
import { describe, expect, inject, it } from "vitest";
import { callApi, paymentTotal } from "../support/api-client";
import { runCliAsync } from "../support/cli-process";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const env = { apiUrl: baseUrl, apiKey: tokens.api };
const api = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
  callApi(baseUrl, path, { ...request, token: tokens.api });
const RETURN_URL = "http://127.0.0.1:4242/done";
const unique = (label: string) => `${label}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;

async function createPayment(json: Record<string, unknown>): Promise<number> {
  const created = await api("/api/payments", { json: { amount: "2.00", ...json } });
  expect(created.status).toBe(201);
  return Number(created.headers.get("location")!.split("/").at(-1));
}
const settle = async (kind: "payments" | "refunds", id: number, outcome: string) =>
  expect((await api(`/api/test-helpers/${kind}/${id}/settle`, { json: { outcome } })).status).toBe(200);
const paymentsOf = async (customer: string) =>
  ((await api(`/api/payments?customer_id=${customer}`)).body as { meta: { total: number } }).meta.total;
const jsonLines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("payments get and post", () => {
  it("get prints the body as received (piped) for any spelling of a path under /api/", async () => {
    const externalId = unique("get");
    // Left for its payer (a return URL), so it does not settle between the reads.
    const id = await createPayment({ external_id: externalId, return_url: RETURN_URL });
    const direct = await api(`/api/payments/${id}`);
    for (const path of [`payments/${id}`, `/payments/${id}`, `api/payments/${id}`, `/api/payments/${id}`]) {
      const result = await runCliAsync(["get", path], env);
      expect([result.code, result.stderr, result.stdout], path).toEqual([0, "", `${direct.text}\n`]);
    }
    const filtered = await runCliAsync(["get", `/api/payments?external_id=${externalId}`, "--json"], env);
    expect(filtered.code).toBe(0);
    expect((JSON.parse(filtered.stdout) as { data: Array<{ id: number }> }).data.map((p) => p.id)).toEqual([
      id,
    ]);
  });

  it("a 404 exits 1 with the API's message on stderr and nothing on stdout; a URL or a path out of /api is exit 2", async () => {
    const missing = await runCliAsync(["get", "payments/999999999"], env);
    expect(missing).toMatchObject({ code: 1, stdout: "" });
    expect(missing.stderr).toMatch(/^Error: The API refused \(404\): [^\n]+\n$/);
    const route = await runCliAsync(["get", "no-such-route"], env);
    expect(route.code).toBe(1);
    for (const path of ["https://elsewhere.example/api/payments", "payments/../../dashboard"]) {
      const refused = await runCliAsync(["get", path], env);
      expect(refused.code, path).toBe(2);
      expect(refused.stderr).toMatch(/^Error: [^\n]+\n$/);
    }
    expect(
      (await runCliAsync(["get", "payments"], { apiUrl: baseUrl, apiKey: "pay_notarealkey" })).code,
    ).toBe(3);
  });

  it("post -d creates; the same -i key replays without a second payment", async () => {
    const customer = unique("cus_post");
    const body = JSON.stringify({ amount: "4.20", customer_id: customer });
    const first = await runCliAsync(["post", "payments", "-d", body, "-i", customer], env);
    expect([first.code, first.stderr]).toEqual([0, ""]);
    expect(JSON.parse(first.stdout)).toEqual({ message: "Payment created successfully" });
    const again = await runCliAsync(
      ["post", "/api/payments", "--data", body, "--idempotency-key", customer],
      env,
    );
    expect([again.code, again.stdout]).toEqual([0, first.stdout]);
    expect(await paymentsOf(customer)).toBe(1);
    // A route without a body: cancel the pending payment.
    const id = ((await api(`/api/payments?customer_id=${customer}`)).body as { data: Array<{ id: number }> })
      .data[0]!.id;
    const canceled = await runCliAsync(["post", `payments/${id}/cancel`], env);
    expect(canceled.code).toBe(0);
    expect(JSON.parse(canceled.stdout)).toMatchObject({ data: { id, status: "failed" } });
  });

  it.each([
    ["not JSON", "{amount: 1}"],
    ["cut short", '{"amount": "1.00"'],
    ["empty", ""],
  ])("a -d that is %s is refused before any request (exit 2, nothing written)", async (_, data) => {
    const before = await paymentTotal(baseUrl, tokens.api);
    const result = await runCliAsync(["post", "payments", "-d", data], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^Error: -d is not valid JSON: [^\n]+\n$/);
    expect(await paymentTotal(baseUrl, tokens.api)).toBe(before);
  });

  it("a refusal is printed once: one line per field error, nothing repeated", async () => {
    // Before: "The API refused (422): The amount field must be a number. The amount field must be a number."
    const triggered = await runCliAsync(["trigger", "payment.pending", "--amount", "abc"], env);
    expect([triggered.code, triggered.stderr]).toEqual([
      1,
      "Error: The API refused (422): amount: The amount field must be a number.\n",
    ]);
    const posted = await runCliAsync(["post", "payments", "-d", '{"amount":"abc"}'], env);
    expect([posted.code, posted.stdout, posted.stderr]).toEqual([
      1,
      "",
      "Error: The API refused (422): amount: The amount field must be a number.\n",
    ]);
    const two = await runCliAsync(["post", "payments", "-d", '{"amount":"abc","external_id":7}'], env);
    expect(two.stderr.split("\n").filter(Boolean).sort()).toEqual([
      "Error: The API refused (422): amount: The amount field must be a number.",
      "Error: The API refused (422): external_id: The external id field must be a string.",
    ]);
  });
});

describe("payments payments list and refunds list", () => {
  it("payments list takes every filter of the API, pages with --limit/--page, and prints a line each", async () => {
    const customer = unique("cus_list");
    const ids: number[] = [];
    // With a return URL the simulator leaves them pending for their payer: the test settles them.
    for (let index = 0; index < 3; index++)
      ids.push(
        await createPayment({
          customer_id: customer,
          external_id: `${customer}_${index}`,
          return_url: RETURN_URL,
        }),
      );
    await settle("payments", ids[0]!, "completed");
    await settle("payments", ids[1]!, "failed");
    const refund = await api(`/api/payments/${ids[0]}/refunds`, { json: {} });
    expect(refund.status).toBe(201);
    await settle("refunds", Number(refund.headers.get("location")!.split("/").at(-1)), "succeeded");
    const list = (...args: string[]) =>
      runCliAsync(["payments", "list", "--customer", customer, ...args], env);
    const ofJson = async (...args: string[]) =>
      jsonLines((await list("--json", ...args)).stdout).map((line) => line.id);
    expect(await ofJson()).toEqual([...ids].reverse());
    expect(await ofJson("--status", "failed")).toEqual([ids[1]]);
    expect(await ofJson("--external-id", `${customer}_2`)).toEqual([ids[2]]);
    expect(await ofJson("--refund-status", "full")).toEqual([ids[0]]);
    expect(await ofJson("--created-from", "2000-01-01", "--created-to", "2999-12-31")).toHaveLength(3);
    expect(await ofJson("--limit", "2")).toEqual([ids[2], ids[1]]);
    expect(await ofJson("--limit", "2", "--page", "2")).toEqual([ids[0]]);
    expect(jsonLines((await list("--json")).stdout)[0]).toMatchObject({
      type: "payment",
      id: ids[2],
      status: "pending",
    });
    const human = await list();
    expect(human.code).toBe(0);
    expect(human.stdout.split("\n")[1]).toMatch(
      new RegExp(
        `^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z  ${ids[1]}  failed     2\\.00 USD  ${customer}_1$`,
      ),
    );
    expect((await list("--created-from", "2999-01-01")).stdout).toBe("No payments.\n");
    const bad = await list("--created-from", "yesterday");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Error: The API refused \(422\): created_from: [^\n]+\n$/);
    expect((await list("--status", "paid")).code).toBe(2);
    expect((await list("--page", "0")).code).toBe(2);
  });

  it("refunds list filters by --status and --payment, one line each", async () => {
    const id = await createPayment({ amount: "9.00", return_url: RETURN_URL });
    await settle("payments", id, "completed");
    const refundIds: number[] = [];
    for (const amount of ["1.99", "2.00"]) {
      const refund = await api(`/api/payments/${id}/refunds`, { json: { amount, reason: "duplicate" } });
      expect(refund.status).toBe(201);
      refundIds.push(Number(refund.headers.get("location")!.split("/").at(-1)));
    }
    // Settled here as the simulator would (on PostgreSQL this server runs no settler): an amount ending in
    // .99 fails, any other succeeds; the simulator may have got there first (then the helper answers 409).
    for (const [index, outcome] of [
      [0, "failed"],
      [1, "succeeded"],
    ] as const)
      expect([200, 409]).toContain(
        (await api(`/api/test-helpers/refunds/${refundIds[index]}/settle`, { json: { outcome } })).status,
      );
    const list = (...args: string[]) =>
      runCliAsync(["refunds", "list", "--payment", String(id), ...args], env);
    expect(jsonLines((await list("--json")).stdout).map((line) => [line.type, line.id])).toEqual([
      ["refund", refundIds[1]],
      ["refund", refundIds[0]],
    ]);
    expect(jsonLines((await list("--json", "--status", "failed")).stdout).map((line) => line.id)).toEqual([
      refundIds[0],
    ]);
    expect((await list("--limit", "1", "--page", "2", "--json")).stdout).toContain(`"id":${refundIds[0]}`);
    expect((await list()).stdout).toMatch(
      new RegExp(
        `^\\S+Z  ${refundIds[1]}  succeeded  2\\.00 USD  payment ${id}  duplicate\\n\\S+Z  ${refundIds[0]}  failed     1\\.99 USD  payment ${id}  duplicate\\n$`,
      ),
    );
    expect((await list("--status", "pending")).stdout).toBe("No refunds.\n");
  });
});

describe("payments trigger's options, listen --print-secret, counts", () => {
  it("trigger sends --customer, every --metadata pair and --return-url (the payment then waits for its payer)", async () => {
    const customer = unique("cus_trigger");
    const result = await runCliAsync(
      [
        "trigger",
        "payment.pending",
        "--customer",
        customer,
        "--metadata",
        "order=1042",
        "--metadata",
        "note=a=b",
        "--return-url",
        RETURN_URL,
        "--json",
      ],
      env,
    );
    expect([result.code, result.stderr]).toEqual([0, ""]);
    const line = JSON.parse(result.stdout) as { payment_id: number; checkout_url: string };
    expect(line.checkout_url).toMatch(/\/pay\//);
    // Past the server's settle delay (1.5 s): a payment with a return URL is left for its payer.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const payment = (await api(`/api/payments/${line.payment_id}`)).body as {
      data: { status: string; metadata: string };
    };
    expect(payment.data.status).toBe("pending");
    expect(JSON.parse(payment.data.metadata)).toEqual({ customer_id: customer, order: "1042", note: "a=b" });
    const human = await runCliAsync(["trigger", "payment.pending", "--return-url", RETURN_URL], env);
    expect(human.stdout).toMatch(
      /^Trigger succeeded: payment \d+ created \(10\.00 USD, pending, pay at http\S+\/pay\/\S+\)\n$/,
    );
  });

  it.each([["novalue"], ["=1"]])(
    "trigger --metadata %s is a usage error (exit 2), nothing created",
    async (pair) => {
      const result = await runCliAsync(["trigger", "payment.pending", "--metadata", pair], env);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^Error: --metadata takes key=value/);
    },
  );

  it("trigger --metadata with a key given twice is a usage error", async () => {
    const result = await runCliAsync(
      ["trigger", "payment.pending", "--metadata", "a=1", "--metadata", "a=2"],
      env,
    );
    expect([result.code, result.stderr]).toEqual([2, "Error: --metadata a is given twice.\n"]);
  });

  it("listen --print-secret needs no --forward-to; listen without either is exit 2", async () => {
    const alone = await runCliAsync(["listen", "--print-secret"], env);
    expect(alone.code).toBe(0);
    expect(alone.stdout).toMatch(/^whsec_\S+\n$/);
    const withForward = await runCliAsync(
      ["listen", "--forward-to", "http://127.0.0.1:4242/x", "--print-secret"],
      env,
    );
    expect(withForward.stdout).toBe(alone.stdout);
    const neither = await runCliAsync(["listen"], env);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toMatch(/^Error: listen needs --forward-to <url>/);
  });

  it("counts agree with their nouns: 1 payment, 2 payments", async () => {
    const one = unique("cus_one");
    const two = unique("cus_two");
    await createPayment({ customer_id: one });
    await createPayment({ customer_id: two });
    await createPayment({ customer_id: two });
    const listed = (await runCliAsync(["customers", "list", "--limit", "2"], env)).stdout.split("\n");
    expect(listed[0]).toMatch(new RegExp(`^${two}  2 payments  `));
    expect(listed[1]).toMatch(new RegExp(`^${one}  1 payment  `));
  });
});
