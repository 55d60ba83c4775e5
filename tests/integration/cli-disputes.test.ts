// Disputes from a terminal and from code, against the started server: `payments trigger dispute.created`
// opens one (as the dispute test cards do) and says what it withdrew, the dispute fee included; `payments
// disputes list` prints it and filters it, and shows a closed dispute without a due date; `payments listen`
// shows its events as they come; the SDK lists it, saves a draft, and is refused with a typed 409 once the
// bank has decided. The `disputer` merchant's disputes and balance are this file's alone; its requests are
// limited to 30 a minute (a burst of 30, then one per 2 s), so the file makes few.
import { Payments, PaymentsApiError } from "@payments-platform/sdk";
import { describe, expect, inject, it } from "vitest";
import { runCliAsync, startCli } from "../support/cli-process";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const env = { apiUrl: baseUrl, apiKey: tokens.disputer };
// Nothing listens there: `listen` still prints each event before it tries to forward it.
const nowhere = "http://127.0.0.1:9/webhooks";

type Triggered = {
  type: string;
  event: string;
  payment_id: number;
  dispute_id: number | null;
  currency: string;
  dispute_fee: string | null;
  withdrawn: string | null;
};

/** A completed payment of the disputer's; the simulator may complete it first (a 409 then: the same). */
async function completedPayment(client: Payments, amount: string) {
  const payment = await client.payments.create({ amount, currency: "EUR" });
  await client.testHelpers.settlePayment(payment.id, "completed").catch((error: unknown) => {
    if (!(error instanceof PaymentsApiError && error.status === 409)) throw error;
  });
  return payment;
}

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
      // What it withdrew, as the API booked it: the amount and the 15.00 dispute fee, in the account's USD.
      expect(result).toMatchObject({
        type: "triggered",
        event: "dispute.created",
        currency: "USD",
        dispute_fee: "15.00",
        withdrawn: "25.00",
      });
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

  it("trigger dispute.created prints the fee it withdrew; a closed dispute lists with no due date", async () => {
    // The disputer's requests are few (30 a minute): the triggered dispute is also the won one below.
    const printed = await runCliAsync(
      ["trigger", "dispute.created", "--currency", "JPY", "--amount", "1000"],
      env,
    );
    expect(printed.code, printed.stderr).toBe(0);
    const lines = printed.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    // Soft: the closed dispute's line below is checked whatever this one says.
    expect
      .soft(lines[2])
      .toMatch(
        /^Trigger succeeded: dispute \d+ opened \(fraudulent, 1000 JPY \+ 1500 JPY dispute fee = 2500 JPY withdrawn, evidence due by \S+Z\)$/,
      );
    const triggered = Number(/^Trigger succeeded: dispute (\d+) opened/.exec(lines[2]!)?.[1]);

    const client = new Payments({ apiKey: tokens.disputer, baseUrl });
    const lost = await client.testHelpers.openDispute((await completedPayment(client, "13.00")).id);
    const inquiry = await client.testHelpers.openDispute((await completedPayment(client, "14.00")).id, {
      inquiry: true,
    });
    const closed = [
      await client.testHelpers.closeDispute(triggered, "won"),
      await client.testHelpers.closeDispute(lost.id, "lost"),
      await client.testHelpers.closeDispute(inquiry.id, "won"),
    ];
    expect(closed.map((dispute) => dispute.status)).toEqual(["won", "lost", "warning_closed"]);

    const listed = await runCliAsync(["disputes", "list", "--limit", "100"], env);
    expect(listed.code, listed.stderr).toBe(0);
    const listedLines = listed.stdout.trimEnd().split("\n");
    for (const dispute of closed) {
      const line = listedLines.find((candidate) => candidate.includes(`Z  ${dispute.id}  `));
      expect(line).toMatch(new RegExp(`  ${dispute.status} +  .*  closed ${dispute.closed_at}$`));
      expect(line).not.toMatch(/ due /);
    }
    // Every dispute of the account: an open one's line ends in its deadline, a closed one's never does.
    for (const line of listedLines)
      expect(line).toMatch(
        /  (needs_response|under_review|warning_needs_response|warning_under_review) .* due \S+Z$|  (won|lost|warning_closed) .* closed \S+Z$/,
      );
  });
});
