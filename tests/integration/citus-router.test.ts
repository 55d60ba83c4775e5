// On Citus (TEST_CITUS=1, the CI's Citus pass): the schema is sharded by merchant, and every statement of the
// hot requests goes to one shard (DESIGN.md, "Citus: sharded by merchant"). Two checks:
// - EXPLAIN of the hot reads, as the app builds them: a list page and the token check are one-task router
//   queries;
// - each write is one call the coordinator hands whole to the merchant's worker, as Citus itself logs it;
// - the hot requests' domain calls run on a database role whose sessions have
//   citus.multi_task_query_log_level = error, so any statement that would fan out to several shards fails:
//   create (with an Idempotency-Key, and its replay), retrieve, list (page 1, deep, filtered), settle,
//   refund, cancel, a payer's checkout (page and pay), the token check with its rate limit, and the event
//   stream's read of one merchant.
import { createHash } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const citus = process.env.TEST_CITUS === "1";
const sharedUrl = process.env.DATABASE_URL ?? "";
const ROLE = "payments_router_check";
// The server's keys, so what this process encrypts (a checkout token) the server can read, and the reverse.
const serverEnv = inject("serverEnv");
process.env.AUTH_SECRET = serverEnv.AUTH_SECRET;
process.env.ENCRYPTION_KEYS = serverEnv.ENCRYPTION_KEYS;

/** Every `Task Count: n` of a Citus EXPLAIN. */
function taskCounts(plan: string): number[] {
  return [...plan.matchAll(/Task Count: (\d+)/g)].map((match) => Number(match[1]));
}

describe.runIf(citus)("on Citus, sharded by merchant", () => {
  const admin = postgres(sharedUrl, { max: 1, onnotice: () => {} });
  const { tokens } = inject("data");
  let merchantId: number;

  beforeAll(async () => {
    const [token] = await admin<Array<{ merchant_id: string }>>`
      select merchant_id from api_tokens where token_hash = ${createHash("sha256").update(tokens.api).digest("hex")}`;
    merchantId = Number(token!.merchant_id);
    // A role like the app's, but one whose every statement must stay on one shard.
    const [role] = await admin`select 1 from pg_roles where rolname = ${ROLE}`;
    if (!role) await admin.unsafe(`create role ${ROLE} login superuser`);
    await admin.unsafe(`alter role ${ROLE} set citus.multi_task_query_log_level = 'error'`);
  });
  afterAll(() => admin.end());

  it("distributes every merchant-owned table by merchant_id, co-located, with shards on both workers", async () => {
    const tables = await admin<Array<{ name: string; kind: string; column: string; colocation: number }>>`
      select table_name::text as name, citus_table_type as kind, distribution_column as column,
             colocation_id as colocation from citus_tables where table_name::text not like '%\\_p2%'`;
    const byName = new Map(tables.map((table) => [table.name, table]));
    for (const name of [
      "payments",
      "refunds",
      "events",
      "webhook_deliveries",
      "balance_transactions",
      "disputes",
    ])
      expect(byName.get(name), name).toMatchObject({ kind: "distributed", column: "merchant_id" });
    const merchantOwned = tables.filter((table) => table.column === "merchant_id");
    expect(new Set(merchantOwned.map((table) => table.colocation)).size).toBe(1);
    for (const name of ["merchants", "users", "api_tokens", "user_sessions"])
      expect(byName.get(name)?.kind, name).toBe("reference");
    const nodes = await admin<Array<{ nodeport: number }>>`
      select distinct nodeport from citus_shards where table_name = 'payments'::regclass`;
    expect(nodes).toHaveLength(2);
    // One merchant's payments live on one worker.
    const placed = await admin<Array<{ nodeport: number }>>`
      select nodeport from citus_shards
      where shardid = get_shard_id_for_distribution_column('payments', ${merchantId}::bigint)`;
    expect(placed).toHaveLength(1);
  });

  it("plans the hot statements on the merchant's shard alone (EXPLAIN)", async () => {
    const { dialect } = await import("@/db/statement");
    const { listPaymentsQuery } = await import("@/lib/payments/queries");
    const { tokenLookup } = await import("@/lib/tokens/authenticate");
    const explain = async (query: Parameters<typeof dialect.sqlToQuery>[0]) => {
      const { sql, params } = dialect.sqlToQuery(query);
      const rows = await admin.unsafe(`explain ${sql}`, params as never[]);
      return rows.map((row) => String(Object.values(row)[0])).join("\n");
    };
    // One task, in one step: a router query.
    const routed = {
      "list, page 1": listPaymentsQuery(merchantId, 0, 15),
      "list, deep page": listPaymentsQuery(merchantId, 100_000, 15),
      "token check (reference tables, on the coordinator)": tokenLookup(
        createHash("sha256").update(tokens.api).digest("hex"),
        60,
      ),
    };
    for (const [name, statement] of Object.entries(routed)) {
      const plan = await explain(statement);
      expect(taskCounts(plan), `${name}:\n${plan}`).toEqual([1]);
      expect(plan, name).not.toContain("Distributed Subplan");
    }
  });

  it("hands each write to the merchant's worker as one call (citus.log_remote_commands)", async () => {
    const { dialect } = await import("@/db/statement");
    const { createPaymentCall } = await import("@/lib/payments/create-payment");
    const { newCheckoutToken } = await import("@/lib/payments/checkout-token");
    const { sql } = await import("drizzle-orm");
    type SQL = ReturnType<typeof sql>;
    // Citus's own account of what the coordinator sent: each remote command is a NOTICE "issuing …", and a
    // delegated call says "pushing down the function call" (DEBUG1).
    const notices: string[] = [];
    const details: string[] = [];
    const watched = postgres(sharedUrl, {
      max: 1,
      onnotice: (notice) => {
        notices.push(String(notice.message));
        details.push(String(notice.detail ?? ""));
      },
    });
    try {
      await watched`set citus.log_remote_commands = on`;
      await watched`set client_min_messages = debug1`;
      const [worker] = await watched<Array<{ nodeport: number }>>`
        select nodeport from citus_shards
        where shardid = get_shard_id_for_distribution_column('payments', ${merchantId}::bigint)`;
      const payment = {
        amount: "1.00",
        currency: "USD",
        external_id: null,
        customer_id: "cus_delegated",
        metadata: null,
        source: "api" as const,
        autoSettleMs: 0,
        return_url: null,
        paymentLinkId: null,
        checkout: newCheckoutToken(merchantId),
      };
      const creations = {
        "create a payment": createPaymentCall(merchantId, payment, `evt_delegated_${Date.now()}`),
        "create a payment with an Idempotency-Key": createPaymentCall(
          merchantId,
          { ...payment, checkout: newCheckoutToken(merchantId) },
          `evt_delegated_key_${Date.now()}`,
          { key: `delegated-${Date.now()}`, hash: "h" },
        ),
      };
      const run = (call: SQL) => {
        const { sql: text, params } = dialect.sqlToQuery(call);
        return watched.unsafe(text, params as never[]);
      };
      const [pending] = await run(
        createPaymentCall(
          merchantId,
          { ...payment, checkout: newCheckoutToken(merchantId) },
          `evt_to_settle_${Date.now()}`,
        ),
      );
      const toSettle = Number((pending!.created as { id: number }).id);
      const { createRefundCall } = await import("@/lib/refunds/create-refund");
      const calls = {
        ...creations,
        "settle a payment": sql`select settle_payment(${merchantId}::bigint, ${toSettle}::bigint,
          ${`evt_settled_${Date.now()}`}::text, 'completed', null, null, null, 0, false)`,
        "refund it": createRefundCall(
          merchantId,
          toSettle,
          { amount: "0.50", reason: null, external_id: null },
          0,
          null,
        ),
      };
      /** Runs `call` and asserts Citus handed it whole to the merchant's worker; returns its rows. */
      const delegated = async (name: string, call: SQL) => {
        notices.length = 0;
        details.length = 0;
        const rows = await run(call);
        const issued = notices.filter((message) => message.startsWith("issuing "));
        expect(notices, name).toContain("pushing down the function call");
        // One command, the call itself, to the merchant's worker: no statement of it ran from the coordinator.
        expect(issued, name).toHaveLength(1);
        expect(issued[0], name).toMatch(
          /^issuing SELECT public\.(create_payment|settle_payment|create_refund|settle_refund|create_payout|move_payout|pay_checkout|open_dispute|decide_dispute)\(/,
        );
        expect(details[notices.indexOf(issued[0]!)], name).toContain(`:${worker!.nodeport} `);
        return rows;
      };
      let refundId = 0;
      for (const [name, call] of Object.entries(calls)) {
        const [row] = await delegated(name, call);
        if (name === "refund it") refundId = Number((row!.made as { id: number }).id);
      }
      await delegated(
        "settle the refund",
        sql`select settle_refund(${merchantId}::bigint, ${refundId}::bigint, ${`evt_refund_${Date.now()}`}::text,
          'succeeded', null, false, false)`,
      );
      // A payer pays at a new payment's checkout.
      const checkout = newCheckoutToken(merchantId);
      await run(createPaymentCall(merchantId, { ...payment, checkout }, `evt_to_pay_${Date.now()}`));
      await delegated(
        "pay at the checkout",
        sql`select pay_checkout(${merchantId}::bigint, ${checkout.hash}::text, ${`evt_paid_${Date.now()}`}::text,
          'completed', null, null, ${JSON.stringify({ brand: "visa", last4: "4242" })}::json, false, 0, false, 10,
          null, false, 0)`,
      );
      // A payout of a cent of what is left, to an account of its own, and its cancel.
      const { encryptSecret } = await import("@/lib/platform/encryption");
      const { TEST_IBANS } = await import("@/lib/payouts/iban");
      await watched`insert into payout_accounts (merchant_id, account_holder, iban_ciphertext, iban_last4)
        values (${merchantId}, 'Router check', ${encryptSecret(TEST_IBANS.pays)}, '3000')
        on conflict (merchant_id) do nothing`;
      const [made] = await delegated(
        "create a payout",
        sql`select create_payout(${merchantId}::bigint, ${`evt_payout_${Date.now()}`}::text, 'USD', 0.01,
          999999999999.99, '3000', false, 0, false, null, 'h', now()) as made`,
      );
      const payoutId = Number((made!.made as { payout: { id: number } }).payout.id);
      await delegated(
        "cancel the payout",
        sql`select move_payout(${merchantId}::bigint, ${payoutId}::bigint, ${`evt_canceled_${Date.now()}`}::text,
          '{pending}', 'canceled', null, 0, false)`,
      );
      // The paid payment disputed and won.
      const { DISPUTE_EVIDENCE_FIELDS } = await import("@/db/enums");
      const fields = `{${DISPUTE_EVIDENCE_FIELDS.join(",")}}`;
      const [paid] = await watched<Array<{ id: string }>>`
        select payment_id::text as id from checkouts where merchant_id = ${merchantId} and token_hash = ${checkout.hash}`;
      const [opened] = await delegated(
        "open a dispute",
        sql`select open_dispute(${merchantId}::bigint, ${Number(paid!.id)}::bigint, ${`evt_opened_${Date.now()}`}::text,
          ${`evt_withdrawn_${Date.now()}`}::text, 'fraudulent', false, 7, ${fields}::text[], false) as opened`,
      );
      await delegated(
        "decide the dispute",
        sql`select decide_dispute(${merchantId}::bigint, ${Number((opened!.opened as { id: number }).id)}::bigint, 'won',
          ${`evt_won_${Date.now()}`}::text, ${`evt_closed_${Date.now()}`}::text, ${fields}::text[], false)`,
      );
    } finally {
      await watched.end();
    }
  });

  it("runs a merchant's hot requests without a statement that reaches two shards", async () => {
    const routerUrl = new URL(sharedUrl);
    routerUrl.username = ROLE;
    process.env.DATABASE_URL = routerUrl.href;
    const { getDb, migrateDatabase, closeDatabase } = await import("@/db/client");
    // Catalog reads only, on a database migrated already: it also tells the app it is on Citus.
    await migrateDatabase();
    const db = getDb();
    try {
      const { authenticateApiToken } = await import("@/lib/tokens/authenticate");
      const { createPayment } = await import("@/lib/payments/create-payment");
      const { findPayment, listPayments } = await import("@/lib/payments/queries");
      const { settlePayment, cancelPayment } = await import("@/lib/payments/settlement");
      const { createRefund } = await import("@/lib/refunds/create-refund");
      const { findCheckout } = await import("@/lib/checkout/checkout-page");
      const { payAtCheckout } = await import("@/lib/checkout/checkouts");
      const { readStreamEvents } = await import("@/lib/events/stream-hub");

      // The guard is on: a statement over every merchant's payments is refused on this role.
      const { sql: guardSql } = await import("drizzle-orm");
      const refused = await db.execute(guardSql`select count(*) from payments`).then(
        () => "answered",
        (error: { cause?: Error }) => String(error.cause?.message),
      );
      expect(refused).toMatch(/multi-task/);

      const auth = await authenticateApiToken(db, tokens.api, 60);
      expect(auth.token?.merchantId).toBe(merchantId);

      const key = `router-${Date.now()}`;
      const made = await createPayment(
        db,
        merchantId,
        { amount: "12.00" },
        { source: "api", autoSettleMs: 0, idempotencyKey: key },
      );
      const replay = await createPayment(
        db,
        merchantId,
        { amount: "12.00" },
        { source: "api", autoSettleMs: 0, idempotencyKey: key },
      );
      expect(replay).toMatchObject({ paymentId: made.paymentId, replayed: true });
      expect((await findPayment(db, merchantId, made.paymentId))?.payment.status).toBe("pending");

      expect((await listPayments(db, merchantId, 1, 15)).items.length).toBeGreaterThan(0);
      await listPayments(db, merchantId, 400, 15);
      await listPayments(db, merchantId, 1, 15, { status: "pending" });

      await settlePayment(db, made.paymentId, { outcome: "completed" }, merchantId, "test_helper");
      await createRefund(db, merchantId, made.paymentId, { amount: "2.00" }, { autoSettleMs: 0 });

      const toCancel = await createPayment(
        db,
        merchantId,
        { amount: "3.00" },
        { source: "api", autoSettleMs: 0 },
      );
      await cancelPayment(db, toCancel.paymentId, merchantId);

      const paid = await createPayment(
        db,
        merchantId,
        { amount: "4.00", return_url: "https://shop.example/done" },
        { source: "api", autoSettleMs: 0 },
      );
      const token = paid.checkoutToken!;
      expect((await findCheckout(db, token))?.status).toBe("pending");
      const answer = await payAtCheckout(
        db,
        token,
        { card_number: "4242424242424242", expiry: "12/40", cvc: "123", name: "Router Check" },
        "203.0.113.77",
      );
      expect(answer.kind).not.toBe("invalid");

      const since = guardSql`now() - interval '1 minute'`;
      expect((await readStreamEvents(db, [merchantId], since, [])).length).toBeGreaterThan(0);
    } finally {
      await closeDatabase();
      process.env.DATABASE_URL = sharedUrl;
    }
  });
});
