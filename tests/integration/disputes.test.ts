// Disputes over real HTTP (DESIGN.md, "Disputes"): the dispute test cards at the checkout, the money withdrawn
// with its fee and reinstated on a win, evidence drafts and submissions (the magic words decide), acceptance,
// inquiries that move no money, refunds refused while disputed, closed disputes' 409s, the signed events an
// endpoint receives, bad input named by field, another merchant's disputes out of reach, and the books still
// balancing after it all (ledger:verify).
import { describe, expect, it } from "vitest";
import { callApi } from "../support/api-client";
import { CARDS, card, paymentWithCheckout, postCheckout } from "../support/checkout-client";
import { verifyLedger } from "../support/ledger-client";
import { manualSettlementSuite } from "../support/manual-settlement-server";
import { WebhookReceiver } from "../support/webhook-receiver";

const receiver = new WebhookReceiver();
const suite = manualSettlementSuite("disputes", 67, receiver);
const { as } = suite;
// The seeded `hooks` merchant: its endpoint on the receiver subscribes to the default events, disputes' too.
const merchant = as("hooks");
const other = as("other");

type Dispute = {
  id: number;
  payment_id: number;
  amount: string;
  currency: string;
  reason: string;
  status: string;
  evidence: Record<string, string | null>;
  evidence_due_by: string;
  is_refundable: boolean;
  closed_at: string | null;
};
type Move = { type: string; source_id: number; amount: string; fee: string; net: string };

const dataOf = <T>(response: { body: unknown }) => (response.body as { data: T }).data;

/** A payment paid at its checkout with `number`; its id. */
async function paidWith(number: string, amount = "40.00"): Promise<number> {
  const { id, checkoutUrl } = await paymentWithCheckout(suite.server.baseUrl, suite.tokens.hooks, {
    amount,
    currency: "EUR",
  });
  const answer = await postCheckout(suite.server.baseUrl, checkoutUrl, "attempts", card(number));
  expect(answer.status).toBe(200);
  return id;
}

/** The payment's dispute, once the simulated bank has opened it (a few seconds after the payment). */
async function disputeOf(paymentId: number): Promise<Dispute> {
  let found: Dispute | undefined;
  await expect
    .poll(
      async () => {
        found = dataOf<Dispute[]>(await merchant(`/api/disputes?payment_id=${paymentId}`))[0];
        return found?.status;
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBeDefined();
  return found!;
}

async function movesOf(disputeId: number): Promise<Move[]> {
  const moves = dataOf<Move[]>(await merchant("/api/balance-transactions?perPage=100"));
  return moves.filter((move) => move.source_id === disputeId && move.type.startsWith("dispute"));
}

describe("disputes", () => {
  it("4000 0000 0000 0259: completed, then disputed; -40.00 and a 15.00 fee; winning evidence reinstates 40.00", async () => {
    const paymentId = await paidWith(CARDS.disputed);
    expect(dataOf<{ status: string }>(await merchant(`/api/payments/${paymentId}`)).status).toBe("completed");
    const dispute = await disputeOf(paymentId);
    expect(dispute).toMatchObject({
      payment_id: paymentId,
      amount: "40.00",
      currency: "EUR",
      reason: "fraudulent",
      status: "needs_response",
      is_refundable: false,
      closed_at: null,
    });
    const due = Date.parse(dispute.evidence_due_by) - Date.now();
    expect(due).toBeGreaterThan(6.9 * 86_400_000);
    expect(due).toBeLessThan(7.1 * 86_400_000);
    expect(await movesOf(dispute.id)).toMatchObject([
      { type: "dispute", amount: "-40.00", fee: "15.00", net: "-55.00" },
    ]);

    // Disputed: no refund.
    const refund = await merchant(`/api/payments/${paymentId}/refunds`, { json: { amount: "1.00" } });
    expect(refund.status).toBe(422);
    expect(refund.body).toMatchObject({ errors: { payment: ["A disputed payment cannot be refunded."] } });

    // A draft, then the answer: the magic words win it a few seconds later.
    const draft = await merchant(`/api/disputes/${dispute.id}/evidence`, {
      json: { product_description: "A blue teapot 🫖", customer_name: "Ada" },
    });
    expect(draft.status).toBe(200);
    expect(dataOf<Dispute>(draft)).toMatchObject({
      status: "needs_response",
      evidence: { product_description: "A blue teapot 🫖", customer_name: "Ada", receipt: null },
    });
    const cleared = await merchant(`/api/disputes/${dispute.id}/evidence`, { json: { customer_name: null } });
    expect(dataOf<Dispute>(cleared).evidence).toMatchObject({
      product_description: "A blue teapot 🫖",
      customer_name: null,
    });
    const submitted = await merchant(`/api/disputes/${dispute.id}/evidence`, {
      json: { uncategorized_text: "winning_evidence", submit: true },
    });
    expect(dataOf<Dispute>(submitted).status).toBe("under_review");
    expect((await merchant(`/api/disputes/${dispute.id}/evidence`, { json: { receipt: "r" } })).status).toBe(
      409,
    );
    await expect
      .poll(async () => dataOf<Dispute>(await merchant(`/api/disputes/${dispute.id}`)).status, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe("won");
    expect(await movesOf(dispute.id)).toMatchObject([
      { type: "dispute_won", amount: "40.00", fee: "0.00", net: "40.00" },
      { type: "dispute", amount: "-40.00", fee: "15.00", net: "-55.00" },
    ]);
    // Closed: a 409 for evidence and acceptance alike.
    expect((await merchant(`/api/disputes/${dispute.id}/evidence`, { json: { receipt: "r" } })).status).toBe(
      409,
    );
    expect((await merchant(`/api/disputes/${dispute.id}/close`, { method: "POST" })).status).toBe(409);

    // Every event, signed, at the merchant's endpoint, in the payment's timeline order.
    await expect
      .poll(
        () =>
          receiver.received
            .filter(
              (hook) => hook.payload.event.startsWith("dispute.") && hook.payload.data.id === dispute.id,
            )
            .map((hook) => [hook.payload.event, hook.verified]),
        { timeout: 30_000, interval: 250 },
      )
      .toEqual(
        expect.arrayContaining([
          ["dispute.created", true],
          ["dispute.funds_withdrawn", true],
          ["dispute.updated", true],
          ["dispute.funds_reinstated", true],
          ["dispute.closed", true],
        ]),
      );
  });

  it("4000 0000 0000 1976: an inquiry moves no money; accepted, it closes", async () => {
    const paymentId = await paidWith(CARDS.inquiry);
    const inquiry = await disputeOf(paymentId);
    expect(inquiry).toMatchObject({ status: "warning_needs_response", reason: "fraudulent" });
    expect(await movesOf(inquiry.id)).toEqual([]);
    const closed = await merchant(`/api/disputes/${inquiry.id}/close`, { method: "POST" });
    expect(dataOf<Dispute>(closed)).toMatchObject({ status: "warning_closed" });
    expect(dataOf<Dispute>(closed).closed_at).not.toBeNull();
    expect(await movesOf(inquiry.id)).toEqual([]);
  });

  it("4000 0000 0000 2685: product_not_received; accepting loses it and keeps both the amount and the fee", async () => {
    const paymentId = await paidWith(CARDS.notReceived, "12.00");
    const dispute = await disputeOf(paymentId);
    expect(dispute).toMatchObject({ reason: "product_not_received", amount: "12.00" });
    const accepted = await merchant(`/api/disputes/${dispute.id}/close`, { method: "POST" });
    expect(dataOf<Dispute>(accepted).status).toBe("lost");
    expect(await movesOf(dispute.id)).toMatchObject([{ type: "dispute", net: "-27.00" }]);
    // Lost: still no refund (the bank already took it back).
    expect((await merchant(`/api/payments/${paymentId}/refunds`, { json: {} })).status).toBe(422);
  });

  it("losing evidence loses; the test helpers open and decide one now; a closed one is a 409", async () => {
    const created = await merchant("/api/payments", { json: { amount: "5.00", currency: "EUR" } });
    const paymentId = Number(created.headers.get("location")!.split("/").at(-1));
    await merchant(`/api/test-helpers/payments/${paymentId}/settle`, { json: { outcome: "completed" } });
    const opened = await merchant(`/api/test-helpers/payments/${paymentId}/dispute`, {
      json: { reason: "duplicate" },
    });
    expect(opened.status).toBe(201);
    expect(opened.headers.get("location")).toBe(`/api/disputes/${dataOf<Dispute>(opened).id}`);
    expect((await merchant(`/api/test-helpers/payments/${paymentId}/dispute`, { json: {} })).status).toBe(
      409,
    );
    const dispute = dataOf<Dispute>(opened);
    await merchant(`/api/disputes/${dispute.id}/evidence`, {
      json: { uncategorized_text: "losing_evidence", submit: true },
    });
    await expect
      .poll(async () => dataOf<Dispute>(await merchant(`/api/disputes/${dispute.id}`)).status, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe("lost");
    const again = await merchant(`/api/test-helpers/disputes/${dispute.id}/close`, {
      json: { outcome: "won" },
    });
    expect(again.status).toBe(409);

    // A second one decided by the helper: other evidence stays under review until then.
    const second = await merchant("/api/payments", { json: { amount: "3.00", currency: "EUR" } });
    const secondId = Number(second.headers.get("location")!.split("/").at(-1));
    await merchant(`/api/test-helpers/payments/${secondId}/settle`, { json: { outcome: "completed" } });
    const disputed = dataOf<Dispute>(
      await merchant(`/api/test-helpers/payments/${secondId}/dispute`, { json: {} }),
    );
    await merchant(`/api/disputes/${disputed.id}/evidence`, { json: { receipt: "Order 7", submit: true } });
    expect(dataOf<Dispute>(await merchant(`/api/disputes/${disputed.id}`)).status).toBe("under_review");
    const won = await merchant(`/api/test-helpers/disputes/${disputed.id}/close`, {
      json: { outcome: "won" },
    });
    expect(dataOf<Dispute>(won).status).toBe("won");
    // Won: refundable again.
    expect((await merchant(`/api/payments/${secondId}/refunds`, { json: { amount: "1.00" } })).status).toBe(
      201,
    );
  });

  it("refuses bad input with a 422 naming the field, and nothing changes", async () => {
    const [dispute] = dataOf<Dispute[]>(await merchant("/api/disputes?status=needs_response"));
    const open = dispute ?? dataOf<Dispute[]>(await merchant("/api/disputes"))[0]!;
    const cases: Array<[string, Parameters<typeof callApi>[2], string]> = [
      ["/api/disputes?status=bogus", {}, "status"],
      ["/api/disputes?payment_id=abc", {}, "payment_id"],
      [`/api/disputes/${open.id}/evidence`, { json: { submit: "yes" } }, "submit"],
      [`/api/disputes/${open.id}/evidence`, { json: { receipt: 5 } }, "receipt"],
      [`/api/disputes/${open.id}/evidence`, { json: { refund_policy: "x".repeat(20_001) } }, "refund_policy"],
      [`/api/disputes/${open.id}/evidence`, { json: { customer_email: "a\u0000b" } }, "customer_email"],
      [`/api/test-helpers/disputes/${open.id}/close`, { json: { outcome: "maybe" } }, "outcome"],
      [`/api/test-helpers/disputes/${open.id}/close`, { json: {} }, "outcome"],
    ];
    for (const [path, request, field] of cases) {
      const refused = await merchant(path, request);
      expect([path, refused.status]).toEqual([path, 422]);
      expect(Object.keys((refused.body as { errors: object }).errors)).toEqual([field]);
    }
    // 20,000 characters are fine, however many UTF-16 units they take.
    const long = await merchant(`/api/disputes/${open.id}/evidence`, {
      json: { refund_policy: "🫖".repeat(20_000) },
    });
    expect([409, 200]).toContain(long.status);
    const pending = await merchant("/api/payments", { json: { amount: "2.00" } });
    const pendingId = Number(pending.headers.get("location")!.split("/").at(-1));
    const notCompleted = await merchant(`/api/test-helpers/payments/${pendingId}/dispute`, { json: {} });
    expect(notCompleted.status).toBe(422);
    expect(Object.keys((notCompleted.body as { errors: object }).errors)).toEqual(["payment"]);
  });

  it("another merchant's disputes are not found, and its list is its own", async () => {
    const [dispute] = dataOf<Dispute[]>(await merchant("/api/disputes"));
    expect(dispute).toBeDefined();
    for (const [path, request] of [
      [`/api/disputes/${dispute!.id}`, {}],
      [`/api/disputes/${dispute!.id}/evidence`, { json: { receipt: "mine now" } }],
      [`/api/disputes/${dispute!.id}/close`, { method: "POST" }],
      [`/api/test-helpers/disputes/${dispute!.id}/close`, { json: { outcome: "won" } }],
      [`/api/test-helpers/payments/${dispute!.payment_id}/dispute`, { json: {} }],
    ] as const) {
      expect([path, (await other(path, request)).status]).toEqual([path, 404]);
    }
    expect(dataOf<Dispute[]>(await other("/api/disputes"))).toEqual([]);
    expect(dataOf<Dispute[]>(await other(`/api/disputes?payment_id=${dispute!.payment_id}`))).toEqual([]);
  });

  // The operator's check reads the server's database: on PGlite that lives inside the server's process.
  it.runIf(process.env.DATABASE_URL)("ledger:verify: the books balance after all of it", async () => {
    await verifyLedger(suite.server.env);
  });
});
