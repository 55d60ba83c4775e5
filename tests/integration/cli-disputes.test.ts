// Disputes from a terminal and from code, against the started server: `payments trigger dispute.created`
// opens one (as the dispute test cards do), `payments disputes list` prints it and filters it, `payments listen`
// shows its events as they come; the SDK lists it, saves a draft, and is refused with a typed 409 once the
// bank has decided. The `disputer` merchant's disputes and balance are this file's alone.
import { Payments, PaymentsApiError } from "@payments-platform/sdk";
import { describe, expect, inject, it } from "vitest";
import { runCliAsync, startCli } from "../support/cli-process";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const env = { apiUrl: baseUrl, apiKey: tokens.disputer };
// Nothing listens there: `listen` still prints each event before it tries to forward it.
const nowhere = "http://127.0.0.1:9/webhooks";

type Triggered = { type: string; event: string; payment_id: number; dispute_id: number | null };

describe("disputes in the CLI and the SDK", () => {
  it("trigger dispute.created opens one; disputes list prints it, filtered; listen shows its events", async () => {
    const none = await runCliAsync(["disputes", "list"], env);
    expect([none.code, none.stdout]).toEqual([0, "No disputes.\n"]);

    const listen = startCli(
      ["listen", "--forward-to", nowhere, "--events", "dispute.created,dispute.funds_withdrawn", "--json"],
      env,
    );
    try {
      await listen.waitForLine((line) => line.type === "connected");
      const triggered = await runCliAsync(["trigger", "dispute.created", "--json"], env);
      expect(triggered.code, triggered.stderr).toBe(0);
      const result = JSON.parse(triggered.stdout) as Triggered;
      expect(result).toMatchObject({ type: "triggered", event: "dispute.created" });
      expect(result.dispute_id).toEqual(expect.any(Number));

      const listed = await runCliAsync(["disputes", "list"], env);
      expect(listed.code).toBe(0);
      const lines = listed.stdout.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`  ${result.dispute_id}  needs_response`);
      expect(lines[0]).toContain(`payment ${result.payment_id}  fraudulent  due `);

      const json = await runCliAsync(
        ["disputes", "list", "--json", "--payment", String(result.payment_id)],
        env,
      );
      expect(JSON.parse(json.stdout)).toMatchObject({
        type: "dispute",
        id: result.dispute_id,
        payment_id: result.payment_id,
        status: "needs_response",
        reason: "fraudulent",
      });
      const won = await runCliAsync(["disputes", "list", "--status", "won"], env);
      expect([won.code, won.stdout]).toEqual([0, "No disputes.\n"]);
      const badStatus = await runCliAsync(["disputes", "list", "--status", "bogus"], env);
      expect(badStatus.code).not.toBe(0);
      expect(badStatus.stderr).toMatch(/status/);

      await listen.waitForLine(
        () =>
          ["dispute.created", "dispute.funds_withdrawn"].every((type) =>
            listen.lines().some((line) => line.type === "event" && line.event === type),
          ),
        30_000,
      );
    } finally {
      await listen.stop();
    }
  });

  it("the SDK lists the dispute, saves a draft, and gets a typed 409 once the bank has decided", async () => {
    const client = new Payments({ apiKey: tokens.disputer, baseUrl });
    const payment = await client.payments.create({ amount: "25.00", currency: "EUR" });
    await client.testHelpers.settlePayment(payment.id, "completed").catch((error: unknown) => {
      // The simulator may have completed it first: the same outcome.
      if (!(error instanceof PaymentsApiError && error.status === 409)) throw error;
    });
    const opened = await client.testHelpers.openDispute(payment.id, { reason: "product_not_received" });
    expect(opened).toMatchObject({ payment_id: payment.id, amount: "25.00", status: "needs_response" });

    const listed = [];
    for await (const dispute of client.disputes.list({ paymentId: payment.id })) listed.push(dispute.id);
    expect(listed).toEqual([opened.id]);

    const draft = await client.disputes.saveEvidence(opened.id, { uncategorized_text: "Tracking: 1Z999" });
    expect(draft.status).toBe("needs_response");
    expect(draft.evidence.uncategorized_text).toBe("Tracking: 1Z999");
    expect((await client.disputes.retrieve(opened.id)).evidence.uncategorized_text).toBe("Tracking: 1Z999");

    const decided = await client.testHelpers.closeDispute(opened.id, "won");
    expect(decided.status).toBe("won");
    const refused = await client.disputes.close(opened.id).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(PaymentsApiError);
    expect((refused as PaymentsApiError).status).toBe(409);
    expect((await client.disputes.retrieve(opened.id)).status).toBe("won");
  });
});
