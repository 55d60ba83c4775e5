import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Executor, type Transaction } from "@/db/client";
import type { PayoutStatus } from "@/db/enums";
import { addToBalances, addToDailyTotals } from "@/lib/ledger/postings";
import { amountRefusal, exceedsMaxAmount, inMinorUnits, maxAmount } from "@/lib/money/amount";
import { onceForKey, requestHash, sameAmount } from "@/lib/payments/idempotency";
import { recordEvent } from "@/lib/payments/outbox";
import { decryptSecret } from "@/lib/platform/encryption";
import { DomainError, validationError } from "@/lib/platform/errors";
import { forEachDueMerchant } from "@/lib/platform/merchant-claims";
import { isoDate, isoTimestamp } from "@/lib/platform/timestamps";
import { messages, parseInput } from "@/lib/platform/validation";
import { accountNeedsReplacing } from "./account";
import { CLOSED_ACCOUNT, TEST_IBANS } from "./iban";
import { createPayoutSchema, PAYOUT_EVENT_TYPES, settlePayoutSchema, type Payout } from "./schemas";

export type PayoutRow = {
  merchant_id: number | string;
  id: number | string;
  amount: string;
  currency: string;
  status: PayoutStatus;
  arrival_date: Date | string;
  destination_last4: string;
  destination_closed: boolean;
  failure_reason: string | null;
  created_at: Date | string;
};

export const PAYOUT_COLUMNS = sql.raw(
  "merchant_id, id, amount, currency, status, arrival_date, " +
    "destination_last4, destination_closed, failure_reason, created_at",
);

export function toPayout(row: PayoutRow): Payout {
  return {
    id: Number(row.id),
    amount: inMinorUnits(row.amount, row.currency),
    currency: row.currency,
    status: row.status,
    arrival_date: isoDate(row.arrival_date),
    destination_last4: row.destination_last4,
    failure_reason: row.failure_reason,
    created_at: isoTimestamp(row.created_at),
  };
}

/** Records a payout event in the caller's transaction. */
const recordPayoutEvent = (
  tx: Executor,
  type: (typeof PAYOUT_EVENT_TYPES)[number],
  payout: Payout,
  merchantId: number,
) => recordEvent(tx, { merchantId, type, data: payout, paymentId: null });

/** Payouts of one merchant and currency are made one at a time: the check against the balance holds. */
const lockBalance = (tx: Executor, merchantId: number, currency: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`payout:${merchantId}:${currency}`}, 0))`);

/** The available balance, and how `amount` compares with it: in numeric, never through a float. */
async function availableBalance(
  tx: Executor,
  merchantId: number,
  currency: string,
  amount: string | undefined,
) {
  const [row] = await selectRows<{ available: string; positive: boolean; exceeded: boolean }>(
    tx,
    sql`select total::text as available, total > 0 as positive,
               coalesce(${amount ?? null}::numeric > total, false) as exceeded
        from (select coalesce(sum(amount), 0) as total from ledger_balances
              where merchant_id = ${merchantId} and account = 'available' and currency = ${currency}) balance`,
  );
  return row!;
}

/** The entries of a payout's movement on its own balance transaction or a new one. */
async function postPayoutMovement(
  tx: Executor,
  payout: PayoutRow,
  movement: "created" | "arrived" | "returned",
  carries = false,
): Promise<void> {
  const amount = payout.amount;
  const lines =
    movement === "created"
      ? sql`values ('available', -${amount}::numeric), ('in_transit', ${amount}::numeric)`
      : movement === "arrived"
        ? sql`values ('in_transit', -${amount}::numeric), ('bank', ${amount}::numeric)`
        : sql`values ('in_transit', -${amount}::numeric), ('available', ${amount}::numeric)`;
  const transaction =
    movement === "arrived"
      ? sql`select id from balance_transactions
            where merchant_id = ${payout.merchant_id} and source_id = ${payout.id} and type = 'payout'`
      : sql`insert into balance_transactions (merchant_id, type, source_id, currency, amount, fee, net, status,
                                              available_on, payout_id)
            values (${payout.merchant_id}, ${movement === "created" ? "payout" : "payout_failure"}, ${payout.id},
                    ${payout.currency}, ${movement === "created" ? sql`-${amount}::numeric` : sql`${amount}::numeric`}, 0,
                    ${movement === "created" ? sql`-${amount}::numeric` : sql`${amount}::numeric`}, 'available', now(),
                    ${carries ? payout.id : null})
            returning merchant_id, id, type, currency, amount, fee, net, created_at`;
  await tx.execute(sql`with moved as (${transaction}),
    lines as (
      select ${payout.merchant_id}::bigint as merchant_id, moved.id as transaction_id, ${payout.currency}::text as currency,
             entry.account, entry.amount
      from moved, (${lines}) as entry (account, amount)),
    ${addToBalances(sql`lines`, movement === "arrived" ? "arrive" : "post")}
    ${movement === "arrived" ? sql`` : sql`, ${addToDailyTotals(sql`moved`)}`}
    select 1`);
}

/** One of the merchant's payouts; another merchant's is none (404), as for balance transactions. */
export async function findPayout(
  db: Executor,
  merchantId: number,
  payoutId: number,
): Promise<Payout | undefined> {
  const [row] = await selectRows<PayoutRow>(
    db,
    sql`select ${PAYOUT_COLUMNS} from payouts where merchant_id = ${merchantId} and id = ${payoutId}`,
  );
  return row && toPayout(row);
}

export type CreatePayoutOptions = { autoSettleMs: number; idempotencyKey?: string };

/**
 * POST /api/payouts: all that is available in the currency (or `amount` of it) to the payout account. A payout
 * of all of it carries the balance transactions it pays out (they add up to it); one of part carries none.
 * With an Idempotency-Key, a retry returns the first payout (`replayed`) instead of paying out twice.
 */
export async function createPayout(
  db: Executor,
  merchantId: number,
  input: unknown,
  { autoSettleMs, idempotencyKey }: CreatePayoutOptions,
): Promise<{ payout: Payout; replayed: boolean }> {
  const { currency, amount } = parseInput(createPayoutSchema, input);
  // zod skips an absent key whose schema takes undefined (currencyField's does): required is checked here.
  if (currency === undefined) throw validationError({ currency: [messages.required("currency")] });
  const refusal = amount === undefined ? null : amountRefusal(amount, currency);
  if (refusal) throw validationError({ amount: [refusal] });
  const { result, replayed } = await onceForKey(
    db,
    merchantId,
    idempotencyKey,
    { target: "payout", hash: requestHash({ payout: { currency, amount: sameAmount(amount) } }) },
    (executor) => executor.transaction((tx) => insertPayout(tx, merchantId, currency, amount, autoSettleMs)),
    // A replay answers with the payout as it is now (it may have moved on since).
    (executor, id) => findPayout(executor, merchantId, id),
  );
  return { payout: result, replayed };
}

async function insertPayout(
  tx: Transaction,
  merchantId: number,
  currency: string,
  amount: string | undefined,
  autoSettleMs: number,
): Promise<Payout> {
  const [account] = await selectRows<{
    iban_ciphertext: string;
    iban_last4: string;
    status: string;
    failure_reason: string | null;
  }>(
    tx,
    sql`select iban_ciphertext, iban_last4, status, failure_reason from payout_accounts
        where merchant_id = ${merchantId}`,
  );
  if (!account)
    throw validationError({ payout_account: ["Add a payout account (PUT /api/payout-account) first."] });
  if (account.status === "errored")
    throw validationError({ payout_account: [accountNeedsReplacing(account.failure_reason)] });
  await lockBalance(tx, merchantId, currency);
  const { available, positive, exceeded } = await availableBalance(tx, merchantId, currency, amount);
  const availableText = inMinorUnits(available, currency);
  if (exceeded) throw validationError({ amount: [messages.max("amount", availableText)] });
  if (amount === undefined && !positive)
    throw validationError({
      amount: [`Nothing is available to pay out in ${currency} (${availableText}).`],
    });
  // "All available" above the largest amount pays the largest and leaves the rest (DESIGN.md, "Largest payout").
  if (amount === undefined && exceedsMaxAmount(available, currency)) amount = maxAmount(currency);
  const whole = amount === undefined || inMinorUnits(amount, currency) === availableText;
  const closed = decryptSecret(account.iban_ciphertext) === TEST_IBANS.closed;
  const [row] = await selectRows<PayoutRow>(
    tx,
    sql`insert into payouts (merchant_id, currency, amount, arrival_date, destination_last4, destination_closed,
                             reconciled, move_at)
        values (${merchantId}, ${currency}, ${amount ?? available}::numeric, (now() at time zone 'UTC')::date + 1,
                ${account.iban_last4}, ${closed}, ${whole},
                case when ${autoSettleMs}::int > 0 then now() + ${autoSettleMs}::int * interval '1 millisecond' end)
        returning ${PAYOUT_COLUMNS}`,
  );
  let made = row!;
  if (whole) {
    // What it pays out: every available transaction no payout has carried; together they are the balance.
    // A release committed since the balance was read is carried too, so the amount is their sum.
    const [carried] = await selectRows<PayoutRow & { positive: boolean; carried_total: string }>(
      tx,
      sql`with carried as (
            update balance_transactions set payout_id = ${row!.id}
            where merchant_id = ${merchantId} and currency = ${currency} and status = 'available'
              and payout_id is null
            returning net),
          total as (select coalesce(sum(net), 0) as carried_total from carried)
          update payouts p set amount = total.carried_total from total
          where p.merchant_id = ${merchantId} and p.id = ${row!.id}
          returning ${PAYOUT_COLUMNS}, total.carried_total > 0 as positive, total.carried_total::text`,
    );
    // What it would carry is the balance now (a refund may have taken it below 0 since it was read).
    if (!carried!.positive)
      throw validationError({
        amount: [
          `Nothing is available to pay out in ${currency} (${inMinorUnits(carried!.carried_total, currency)}).`,
        ],
      });
    made = carried!;
  }
  // A payout of all of it is reconciled: its own debit is marked too, so no later payout carries it. One of
  // part of it leaves its debit to the next payout of all, whose transactions then add up to that one.
  await postPayoutMovement(tx, made, "created", whole);
  const payout = toPayout(made);
  await recordPayoutEvent(tx, "payout.created", payout, merchantId);
  return payout;
}

const TERMINAL: Record<"paid" | "failed" | "canceled", (typeof PAYOUT_EVENT_TYPES)[number]> = {
  paid: "payout.paid",
  failed: "payout.failed",
  canceled: "payout.canceled",
};

/**
 * Moves one payout on, in the caller's transaction: to in_transit, or to its end (paid, failed, canceled),
 * posting what that moves. Returns the payout as it is now, or undefined when it was not in `from`.
 */
async function movePayout(
  tx: Transaction,
  merchantId: number,
  payoutId: number,
  from: readonly PayoutStatus[],
  to: "in_transit" | "paid" | "failed" | "canceled",
  nextMoveMs = 0,
): Promise<Payout | undefined> {
  const reason = to === "failed" ? CLOSED_ACCOUNT : null;
  const [row] = await selectRows<PayoutRow>(
    tx,
    // The clock read once in a FROM: Citus refuses it inside a write's CASE.
    sql`update payouts set status = ${to}, failure_reason = ${reason}, updated_at = clock.now,
               move_at = case when ${to}::text = 'in_transit' and ${nextMoveMs}::int > 0
                              then clock.now + ${nextMoveMs}::int * interval '1 millisecond' end
        from (select now() as now) clock
        where merchant_id = ${merchantId} and id = ${payoutId}
          and status in (${sql.join(
            from.map((status) => sql`${status}`),
            sql`, `,
          )})
        returning ${PAYOUT_COLUMNS}`,
  );
  if (!row) return undefined;
  // The account it failed on needs replacing, unless it was replaced since the payout left.
  if (to === "failed")
    await tx.execute(
      sql`update payout_accounts a set status = 'errored', failure_reason = ${reason}
          from payouts p
          where a.merchant_id = ${merchantId} and p.merchant_id = ${merchantId} and p.id = ${payoutId}
            and a.updated_at <= p.created_at`,
    );
  if (to !== "in_transit") {
    await postPayoutMovement(tx, row, to === "paid" ? "arrived" : "returned");
    await recordPayoutEvent(tx, TERMINAL[to], toPayout(row), merchantId);
  }
  return toPayout(row);
}

async function explainUnmoved(
  db: Executor,
  merchantId: number,
  payoutId: number,
  want: string,
): Promise<never> {
  const [row] = await selectRows<{ status: string }>(
    db,
    sql`select status from payouts where merchant_id = ${merchantId} and id = ${payoutId}`,
  );
  if (!row) throw new DomainError("not_found", `Payout ${payoutId} was not found.`);
  throw new DomainError("conflict", `Payout ${payoutId} is ${row.status}: ${want}`);
}

/** POST /api/payouts/{id}/cancel: only while pending; the money is available again. */
export async function cancelPayout(db: Executor, merchantId: number, payoutId: number): Promise<Payout> {
  const payout = await db.transaction((tx) => movePayout(tx, merchantId, payoutId, ["pending"], "canceled"));
  return payout ?? explainUnmoved(db, merchantId, payoutId, "only a pending payout can be canceled.");
}

/**
 * POST /api/test-helpers/payouts/{id}/settle: to its end now; without `outcome` as the simulator would (the
 * closed-account test IBAN fails, any other is paid).
 */
export async function settlePayout(db: Executor, merchantId: number, payoutId: number, input: unknown) {
  const { outcome } = parseInput(settlePayoutSchema, input ?? {});
  const payout = await db.transaction(async (tx) => {
    const [row] = await selectRows<{ destination_closed: boolean }>(
      tx,
      sql`select destination_closed from payouts where merchant_id = ${merchantId} and id = ${payoutId}`,
    );
    if (!row) return undefined;
    const to = outcome ?? (row.destination_closed ? "failed" : "paid");
    return movePayout(tx, merchantId, payoutId, ["pending", "in_transit"], to);
  });
  return payout ?? explainUnmoved(db, merchantId, payoutId, "paid, failed and canceled are final.");
}

/**
 * The simulator: payouts whose move_at has come go one step on (pending → in_transit → paid or failed), a
 * batch per transaction. Returns how many it looked at.
 */
export async function moveDuePayouts(db: Executor, stepMs: number, limit = 50): Promise<number> {
  const isDue = sql`status in ('pending', 'in_transit') and move_at <= now()`;
  return forEachDueMerchant(db, { table: "payouts", where: isDue }, (merchant) =>
    moveClaimedPayouts(db, sql`${isDue} ${merchant.and()}`, stepMs, limit),
  );
}

async function moveClaimedPayouts(db: Executor, isDue: SQL, stepMs: number, limit: number) {
  return db.transaction(async (tx) => {
    const due = await selectRows<{
      merchant_id: string;
      id: string;
      status: PayoutStatus;
      destination_closed: boolean;
    }>(
      tx,
      sql`select merchant_id, id, status, destination_closed from payouts where ${isDue}
          order by move_at limit ${limit} for update skip locked`,
    );
    for (const payout of due) {
      const to = payout.status === "pending" ? "in_transit" : payout.destination_closed ? "failed" : "paid";
      await movePayout(tx, Number(payout.merchant_id), Number(payout.id), [payout.status], to, stepMs);
    }
    return due.length;
  });
}
