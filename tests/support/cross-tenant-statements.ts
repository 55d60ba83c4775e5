// Statements that reach tenant tables across merchants on purpose, each with why and what it becomes when the
// tables are distributed by merchant_id. docs/scaling.md ("Cross-tenant statements") keeps the same list.
// tests/integration/tenant-scoping.test.ts accepts an unscoped reference only when an entry names its table
// and matches: by the statement's text (`sql`), or, for the identity tables the plan keeps as reference
// tables, by the key the statement pins the row with (`pinnedBy`: `users.id = $1`, never a scan).

export type CrossTenantStatement = {
  /** Who sends it, for a reader. */
  site: string;
  tables: string[];
  /** Matches the statement's text, whitespace collapsed to single spaces. */
  sql?: RegExp;
  /** Accepted when the reference's level sets one of these columns equal to a bound value. */
  pinnedBy?: string[];
  why: string;
  onCitus: string;
};

const PER_MERCHANT =
  "This form runs off Citus only. On Citus the merchants with due rows are read first (a plain read of every shard), then each one's claimed with `and merchant_id = …` (lib/platform/merchant-claims.ts): one shard per lock.";

export const CROSS_TENANT_STATEMENTS: CrossTenantStatement[] = [
  {
    site: "forEachDueMerchant, lib/platform/merchant-claims.ts (on Citus only): the claims and the pruner",
    tables: [
      "webhook_deliveries",
      "payments",
      "refunds",
      "balance_transactions",
      "payouts",
      "disputes",
      "scheduled_disputes",
      "idempotency_keys",
      "webhook_inbox_captures",
      "events",
      "event_hourly_counts",
    ],
    sql: /^select distinct merchant_id from "\w+" where .* limit \$\d+$/,
    why: "On Citus the background services first read which merchants have due rows, to claim each one's alone.",
    onCitus: "A plain read of every shard, no lock; each merchant's rows are then claimed on its own shard.",
  },
  {
    site: "claimDueDeliveries, lib/webhooks/delivery-queue.ts",
    tables: ["webhook_deliveries", "events", "webhook_endpoints"],
    sql: /^ ?with due as \( select merchant_id, id from webhook_deliveries where status = 'pending' .* for update skip locked/,
    why: "The webhook worker claims whatever is due, whoever's it is.",
    onCitus: `${PER_MERCHANT} Deliveries, events and endpoints are co-located and joined on merchant_id too.`,
  },
  {
    site: "recordAttempts, lib/webhooks/delivery-queue.ts",
    tables: ["webhook_deliveries", "webhook_endpoints"],
    sql: /^ ?(with updated as \( update webhook_deliveries d set status = v\.status|update webhook_endpoints w set failing_since)/,
    why: "The worker writes a batch of results for the deliveries it claimed, across merchants.",
    onCitus: "A transaction per merchant of the batch (eachMerchantOnCitus), each statement naming it.",
  },
  {
    site: "settleDuePayments, expireStalePayments, settleDueRefunds (lib/payments, lib/refunds settlement.ts)",
    tables: ["payments", "refunds"],
    sql: /^select id, merchant_id(, amount)? from (payments|refunds) where status = 'pending' .* for update skip locked$/,
    why: "The simulated processor settles and expires whatever is due; each transition then names its merchant.",
    onCitus: PER_MERCHANT,
  },
  {
    site: "reconcileProcessorPayments, reconcileProcessorRefunds (lib/processors/reconciler.ts)",
    tables: ["payments", "refunds"],
    sql: /^update "(payments|refunds)" set processor_checked_at = now\(\) where \(merchant_id, id\) in \(select merchant_id, id from "(payments|refunds)" where status = 'pending' and processor <> 'simulator' .* for update skip locked\)\s*returning merchant_id, (processor_payment_id|id::text) as id$/,
    why: "A webhook that never came: the processors' payments and refunds pending past PROCESSOR_RECONCILE_AFTER are claimed, then each is sent to or asked of its processor and moved in its merchant's own call.",
    onCitus: PER_MERCHANT,
  },
  {
    site: "openDueDisputes, decideDueDisputes (lib/disputes/simulator.ts)",
    tables: ["scheduled_disputes", "disputes"],
    // Real time: every environment but the sandboxes on a test clock (lib/platform/work-clock.ts).
    sql: /^( ?delete from scheduled_disputes where \(merchant_id, payment_id\) = \( select merchant_id, payment_id from scheduled_disputes where open_at <= now\(\) and merchant_id not in \(select id from merchants where clock_at is not null\)|select merchant_id, id, payment_id, .* from disputes where (decide_at <= now\(\)|status in \('needs_response', 'warning_needs_response'\) and evidence_due_by <= now\(\)) and merchant_id not in \(select id from merchants where clock_at is not null\) order by \w+ limit 1 for update skip locked$)/,
    why: "The simulated bank opens the test cards' disputes, lands verdicts and loses what passed its deadline, whoever's; each step then names its merchant.",
    onCitus: PER_MERCHANT,
  },
  {
    site: "releaseBalance (lib/ledger/release.ts), moveDuePayouts (lib/payouts/payouts.ts)",
    tables: ["balance_transactions", "payouts"],
    sql: /^( ?with due as \( select merchant_id, id, available_on from balance_transactions where status = 'pending' and available_on <= now\(\)|select merchant_id, id, status from payouts where status in \('pending', 'in_transit'\) and move_at <= now\(\))/,
    why: "The balance releaser and the simulated bank take whatever has come due; each move then names its merchant.",
    onCitus: PER_MERCHANT,
  },
  {
    site: "verifyLedger (lib/ledger/verify.ts): `admin ledger:verify`",
    tables: [
      "balance_transactions",
      "ledger_entries",
      "ledger_balances",
      "balance_transaction_daily_totals",
      "balance_transaction_quarter_hour_totals",
      "payouts",
      "payout_type_totals",
    ],
    sql: /^select count\(\*\) as n from (balance_transactions|\( ?select merchant_id, (day|quarter_hour), type, currency, sum\(count\)|ledger_entries|\(select distinct merchant_id, account, currency from ledger_balances\)|\( ?select 1 from ledger_entries group by|\( ?select merchant_id, account, currency, sum\(amount\) as kept|balance_transactions t left join lateral|payouts p left join lateral)/,
    why: "The operator's check of the whole ledger: every posting, account, day's totals and payout of every merchant.",
    onCitus: "Multi-shard aggregates Citus pushes down to each shard, on an operator's command.",
  },
  {
    site: "runScheduledPayouts, lib/payouts/schedule.ts",
    tables: ["payout_accounts"],
    sql: /^update merchants m set last_scheduled_payout_on = \$1::date where m\.id in \( select id from merchants /,
    why: "The payout schedule claims the merchants due today (merchants is a reference table); it checks each has an account.",
    onCitus:
      "merchants is a reference table; each claimed merchant's payout account is then read on its own shard.",
  },
  {
    site: "the ledger's backfill of existing payments and refunds (db/backfills.ts, migration 0036)",
    tables: ["payments", "refunds", "balance_transactions"],
    sql: /^ ?with picked as \( ?(update payments set fee = 0, net = amount where id > \$1|select r\.merchant_id, r\.id, r\.currency, -r\.amount as amount, 'refund' as type, r\.created_at as at, p\.id as payment_id, p\.external_id, p\.customer_id from refunds r join payments p on p\.merchant_id = r\.merchant_id and p\.id = r\.payment_id where r\.id > \$1)/,
    why: "A data migration walks every merchant's rows by id, a batch per transaction, once.",
    onCitus: "Runs before the tables are distributed (db:migrate distributes last), or per shard.",
  },
  {
    site: "the balance transactions' daily totals' backfill (db/backfills.ts, migration 0044)",
    tables: ["balance_transactions"],
    sql: /^insert into balance_transaction_daily_totals as d .* from balance_transactions where id > \$\d+ and id <= \$\d+ group by/,
    why: "A data migration counts the transactions posted before the totals existed by id, a batch per transaction, once.",
    onCitus:
      "Runs before the new table is distributed (db:migrate distributes last); it reads every shard's batch.",
  },
  {
    site: "pruneExpiredRows, lib/retention/pruning.ts",
    tables: [
      "events",
      "webhook_deliveries",
      "event_hourly_counts",
      "idempotency_keys",
      "api_request_logs",
      "invitations",
      "user_sessions",
      "webhook_inbox_captures",
    ],
    sql: /^ ?with (deleted as \( delete from|doomed as \( select merchant_id, id from events where created_at <)/,
    why: "Retention deletes old rows of every merchant, a batch at a time (by primary key).",
    onCitus: `${PER_MERCHANT} Time-partitioned tables drop whole partitions instead.`,
  },
  {
    site: "webhook queue gauge, lib/platform/metrics.ts",
    tables: ["webhook_deliveries"],
    sql: /^select count\(\*\) filter \(where next_attempt_at <= now\(\)\) as due/,
    why: "An operator metric over the whole queue, once per scrape.",
    onCitus: "A multi-shard aggregate Citus pushes down to every shard; fine at scrape rate.",
  },
  {
    site: "checkStoredSecrets and reencryptStoredSecrets, lib/platform/encryption.ts",
    tables: ["webhook_endpoints", "users", "checkouts", "payout_accounts", "processor_connections"],
    sql: /(as key, count\(\*\)::int as count, min\(|as stored from "(webhook_endpoints|users|checkouts|payout_accounts|processor_connections)" where \(|^update "(webhook_endpoints|users|checkouts|payout_accounts|processor_connections)" set "\w+" = \$1 where \()/,
    why: "At boot, and in `admin secrets:reencrypt`: every stored secret is checked or re-encrypted.",
    onCitus: "Multi-shard reads and by-id updates, once per boot or operator command.",
  },
  {
    site: "rowExists (lib/platform/ownership.ts) after a scoped lookup missed; settleRefund and verifyWebhook",
    tables: [
      "payments",
      "refunds",
      "events",
      "webhook_endpoints",
      "webhook_deliveries",
      "checkouts",
      "payment_links",
    ],
    sql: /^(select 1 from "(payments|refunds|events|webhook_endpoints|webhook_deliveries|payment_links)" where id = \$1 limit 1|select merchant_id from "?\w+"? where id = \$1|select "payments"\."id", "payments"\."merchant_id", .* from "payments" left join "checkouts" on \("checkouts"\."payment_id" = "payments"\."id" and "checkouts"\."merchant_id" = "payments"\."merchant_id"\) where "payments"\."id" = \$1 limit \$2|select "id" from "webhook_endpoints" where "webhook_endpoints"\."id" = \$1|select "merchant_id" from "payments" where "payments"\."id" = \$1|select id, payment_id, amount, currency, status, reason, external_id, failure_reason, created_at, settled_at, merchant_id from refunds where id = \$1|select id, merchant_id, type, data, created_at from events where id = \$1|select r\.\*, p\.merchant_id as owner, .* where p\.id = \$\d+|select "id", "merchant_id", "external_id", .* from "payments" where "payments"\."id" = \$1 limit \$2|select merchant_id, status, currency, \(amount - amount_refunded - amount_refund_pending\)::text as refundable, coalesce\(dispute_status not in \('won', 'warning_closed'\), false\) as disputed from payments where id = \$1)$/,
    why: "The contract's 403 (another merchant's) versus 404 (none), asked only after the lookup with the caller's merchant found nothing.",
    onCitus:
      "The lookup names the caller's merchant (one shard); only on a miss, this multi-shard `select 1 … where id` (an index on id) chooses 403 or 404.",
  },
  {
    site: "admin CLI and test helpers by id (settlePayment, cancelPayment, the dashboard's webhook pages)",
    tables: ["payments", "webhook_endpoints", "webhook_deliveries", "events", "webhook_attempts"],
    sql: /^(select "status"(, "failure_reason")? from "payments" where "payments"\."id" = \$1|with decided \(id, status, failure_code, failure_reason, payment_method\) as \( values \(\$1::bigint, \$2::text, \$3::text, \$4::text, \$5::json\)\), moved as \( update payments p set status = d\.status, .* from decided d, merchants m where p\.id = d\.id and p\.status = 'pending' and m\.id = p\.merchant_id returning)/,
    why: "An operator settles or cancels any merchant's payment by id (`admin payment:settle --id`).",
    onCitus: "A multi-shard lookup on an operator's command; rare enough to leave as it is.",
  },
  {
    site: "readCheckout, findPaymentLinkBySlug (lib/checkout)",
    tables: ["checkouts", "payments", "payment_links"],
    sql: /^(select c\.payment_id, c\.merchant_id, .* from checkouts c join payments p on p\.id = c\.payment_id and p\.merchant_id = c\.merchant_id .* where c\.token_hash = \$1 ?( for update of c)?|select merchant_id from checkouts where token_hash = \$1|select l\.id, l\.merchant_id, .* from payment_links l join merchants m on m\.id = l\.merchant_id where l\.slug = \$1) ?$/,
    why: "A payer reaches a checkout by its token and a link by its slug. Those made before they named their merchant (`{merchant}_{random}`) are found by the hash or slug alone.",
    onCitus:
      "New tokens and slugs carry their merchant, so the read names it (one shard); an older one is a multi-shard read by its index, then the lock is taken on its merchant's shard.",
  },
  {
    site: "liveTokenIds (lib/tokens/authenticate.ts): an open stream re-checks its token",
    tables: ["api_tokens"],
    sql: /^select t\.id from api_tokens t where t\.id = any\(string_to_array\(\$1, ','\)::bigint\[\]\) and/,
    why: "The streams of one process, of any merchants, are re-checked in one statement.",
    onCitus: "api_tokens is a reference table: the lookup is local on every node.",
  },
  {
    site: "renewLease (lib/events/event-stream.ts): a lease is renewed only while its token lives",
    tables: ["api_tokens"],
    sql: /^update event_stream_leases l set expires_at = now\(\) \+ \$1::int \* interval '1 second' where l\.token_id = \$2 and l\.id = \$3 and exists \(select 1 from api_tokens t where t\.id = l\.token_id /,
    why: "The lease is found by its token and id; the token it checks is the lease's own, joined by its id.",
    onCitus: "api_tokens is a reference table: the lookup is local on every node.",
  },
  {
    site: "authenticateApiToken, isLiveWriteToken, token roll, stream lease lock (lib/tokens, lib/events/event-stream.ts)",
    tables: ["api_tokens"],
    pinnedBy: ["token_hash", "id"],
    why: "A bearer token is found by its hash before the merchant is known.",
    onCitus: "api_tokens is a reference table: the lookup is local on every node.",
  },
  {
    site: "sign-in, sessions, two-factor, members, invitations (lib/accounts)",
    tables: ["users", "user_sessions", "invitations"],
    pinnedBy: ["id", "email", "session_key", "user_id", "token_hash"],
    why: "A person signs in by email, a session by its key, an invitation by its link: before the merchant is known.",
    onCitus:
      "Reference tables (few rows per merchant, platform-wide unique keys): local reads on every node.",
  },
];

/** The entry that lets this statement reach this table without merchant_id, if any. */
export function crossTenantEntry(
  sql: string,
  table: string,
  pinnedBy: ReadonlySet<string> = new Set(),
): CrossTenantStatement | undefined {
  const flat = sql.replace(/\s+/g, " ");
  return CROSS_TENANT_STATEMENTS.find(
    (entry) =>
      entry.tables.includes(table) &&
      (entry.sql?.test(flat) ?? true) &&
      (entry.pinnedBy?.some((column) => pinnedBy.has(column)) ?? true),
  );
}
