import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import type { EndpointKind } from "@/db/enums";
import { decryptSecret } from "@/lib/platform/encryption";
import { writeCreatingPartitions } from "@/lib/platform/history-partitions";
import { eachMerchantOnCitus, forEachDueMerchant, type MerchantScope } from "@/lib/platform/merchant-claims";
import { endpointResource } from "./endpoint-api";
import { recordEndpointDisabledEvent } from "./endpoint-events";
import type { WebhookEventType } from "./endpoint-schemas";

export type ClaimedDelivery = {
  id: number;
  merchantId: number;
  endpointId: number;
  eventId: string;
  eventType: WebhookEventType;
  data: unknown;
  attemptCount: number;
  kind: EndpointKind;
  url: string;
  secrets: string[];
  /** Why it cannot be sent (recorded as a failed attempt instead of blocking the queue). */
  problem: string | null;
};

function readSecrets(row: ClaimRow, now: number): { secrets: string[]; problem: string | null } {
  try {
    const previousValid =
      row.previous_secret_ciphertext &&
      row.previous_secret_expires_at &&
      new Date(row.previous_secret_expires_at).getTime() > now;
    return {
      secrets: [
        decryptSecret(row.secret_ciphertext),
        ...(previousValid ? [decryptSecret(row.previous_secret_ciphertext!)] : []),
      ],
      problem: null,
    };
  } catch {
    return {
      secrets: [],
      problem: "The signing secret could not be decrypted (is its key missing from ENCRYPTION_KEYS?).",
    };
  }
}

type ClaimRow = {
  id: number | string;
  merchant_id: number | string;
  endpoint_id: number | string;
  event_id: string;
  attempt_count: number;
  type: WebhookEventType;
  data: unknown;
  kind: EndpointKind;
  url: string;
  enabled: boolean;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | string | null;
};

/**
 * Claims due deliveries: SKIP LOCKED lets any number of workers claim side by side, and pushing
 * next_attempt_at forward by the lease means a worker that dies mid-send loses nothing: its claims come due
 * again when the lease runs out.
 */
export async function claimDueDeliveries(
  db: Executor,
  limit: number,
  leaseSeconds: number,
): Promise<ClaimedDelivery[]> {
  const isDue = sql`status = 'pending' and next_attempt_at <= now()`;
  const rows: ClaimRow[] = [];
  await forEachDueMerchant(db, { table: "webhook_deliveries", where: isDue }, async (merchant) => {
    const free = limit - rows.length;
    if (free > 0) rows.push(...(await claimSome(db, sql`${isDue} ${merchant.and()}`, free, leaseSeconds)));
    return 0;
  });
  const now = Date.now();
  return rows.map((row) => {
    const { secrets, problem } = readSecrets(row, now);
    return {
      id: Number(row.id),
      merchantId: Number(row.merchant_id),
      endpointId: Number(row.endpoint_id),
      eventId: row.event_id,
      eventType: row.type,
      data: typeof row.data === "string" ? (JSON.parse(row.data) as unknown) : row.data,
      attemptCount: row.attempt_count,
      kind: row.kind,
      url: row.url,
      secrets,
      problem: row.enabled ? problem : "The endpoint is disabled.",
    };
  });
}

function claimSome(db: Executor, isDue: SQL, limit: number, leaseSeconds: number): Promise<ClaimRow[]> {
  return selectRows<ClaimRow>(
    db,
    sql`
      with due as (
        select merchant_id, id from webhook_deliveries
        where ${isDue}
        order by next_attempt_at
        limit ${limit}
        for update skip locked
      ), claimed as (
        update webhook_deliveries d
        set next_attempt_at = now() + make_interval(secs => ${leaseSeconds}), updated_at = now()
        from due where d.merchant_id = due.merchant_id and d.id = due.id
        returning d.id, d.merchant_id, d.endpoint_id, d.event_id, d.attempt_count
      )
      select c.id, c.merchant_id, c.endpoint_id, c.event_id, c.attempt_count, e.type, e.data,
             w.kind, w.url, w.enabled, w.secret_ciphertext, w.previous_secret_ciphertext, w.previous_secret_expires_at
      from claimed c
      join events e on e.merchant_id = c.merchant_id and e.id = c.event_id
      join webhook_endpoints w on w.merchant_id = c.merchant_id and w.id = c.endpoint_id`,
  );
}

export type AttemptOutcome = {
  delivery: ClaimedDelivery;
  attemptedAt: Date;
  status: number | null;
  latencyMs: number;
  error: string | null;
  excerpt: string | null;
  /** The delivery's new state: succeeded, failed for good, or pending again at `nextAttemptAt`. */
  deliveryStatus: "succeeded" | "failed" | "pending";
  nextAttemptAt: Date;
  /** The receiver answered 410 Gone: the endpoint is disabled. */
  gone: boolean;
};

/**
 * Records a batch of attempts in one transaction: two statements whatever the batch size (on Citus, a
 * transaction per merchant of the batch, so none spans shards). An attempt whose week has no partition yet
 * (no worker ran the partition service lately) has it created, and the batch is written again.
 */
export async function recordAttempts(db: Executor, outcomes: AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await writeCreatingPartitions(
    db,
    "webhook_attempts",
    () => outcomes.map((outcome) => outcome.attemptedAt),
    () =>
      eachMerchantOnCitus(
        outcomes,
        (outcome) => outcome.delivery.merchantId,
        (some, merchant) => writeAttempts(db, some, merchant),
      ),
  );
}

async function writeAttempts(
  db: Executor,
  outcomes: AttemptOutcome[],
  merchant: MerchantScope,
): Promise<void> {
  const byEndpoint = new Map<number, { merchantId: number; ok: boolean; gone: boolean; at: Date }>();
  for (const outcome of outcomes) {
    const current = byEndpoint.get(outcome.delivery.endpointId);
    const ok = outcome.deliveryStatus === "succeeded";
    byEndpoint.set(outcome.delivery.endpointId, {
      merchantId: outcome.delivery.merchantId,
      ok: (current?.ok ?? false) || ok,
      gone: (current?.gone ?? false) || outcome.gone,
      at: current && current.at < outcome.attemptedAt ? current.at : outcome.attemptedAt,
    });
  }
  await db.transaction(async (tx) => {
    // The deliveries first: their row locks hold off a concurrent endpoint delete (which cascades to them)
    // until this commits, and a delivery deleted before this ran is simply not returned, so its attempt is
    // dropped alone instead of breaking the foreign key and rolling back every other result in the batch.
    await tx.execute(sql`
      with updated as (
        update webhook_deliveries d
        set status = v.status, attempt_count = d.attempt_count + 1, next_attempt_at = v.next_at,
            last_attempt_at = v.attempted_at, updated_at = now()
        from (values ${sql.join(
          outcomes.map(
            (o) =>
              sql`(${o.delivery.merchantId}::bigint, ${o.delivery.id}::bigint, ${o.deliveryStatus}::text, ${o.nextAttemptAt.toISOString()}::timestamptz, ${o.attemptedAt.toISOString()}::timestamptz)`,
          ),
          sql`, `,
        )}) as v(merchant_id, id, status, next_at, attempted_at)
        where d.merchant_id = v.merchant_id and d.id = v.id ${merchant.and("d.merchant_id")}
        returning d.merchant_id, d.id
      )
      insert into webhook_attempts (merchant_id, delivery_id, attempted_at, response_status, latency_ms, error, response_excerpt)
      select a.merchant_id, a.delivery_id, a.attempted_at, a.response_status, a.latency_ms, a.error, a.excerpt
      from (values ${sql.join(
        outcomes.map(
          (o) =>
            sql`(${o.delivery.merchantId}::bigint, ${o.delivery.id}::bigint, ${o.attemptedAt.toISOString()}::timestamptz, ${o.status}::int, ${o.latencyMs}::int, ${o.error}::text, ${o.excerpt}::text)`,
        ),
        sql`, `,
      )}) as a(merchant_id, delivery_id, attempted_at, response_status, latency_ms, error, excerpt)
      where (a.merchant_id, a.delivery_id) in (select merchant_id, id from updated)`);
    // The sub-select locks each endpoint and reads whether it was enabled, so an endpoint this batch
    // disables is told to the merchant's other endpoints exactly once, even with many workers.
    const endpoints = await selectRows<EndpointRow>(
      tx,
      sql`
      update webhook_endpoints w
      set failing_since = case when v.ok then null else coalesce(w.failing_since, v.at) end,
          enabled = w.enabled and not v.gone and (v.ok or coalesce(w.failing_since, v.at) > clock.give_up_before),
          disabled_reason = case
            when v.gone then 'The endpoint answered 410 Gone.'
            when not v.ok and coalesce(w.failing_since, v.at) <= clock.give_up_before then 'Failing without a success for 5 days.'
            else w.disabled_reason end,
          updated_at = clock.now
      from (values ${sql.join(
        [...byEndpoint].map(
          ([id, v]) =>
            sql`(${v.merchantId}::bigint, ${id}::bigint, ${v.ok}::boolean, ${v.gone}::boolean, ${v.at.toISOString()}::timestamptz)`,
        ),
        sql`, `,
      )}) as v(merchant_id, id, ok, gone, at),
      (select merchant_id, id, enabled from webhook_endpoints where (merchant_id, id) in (${sql.join(
        [...byEndpoint].map(([id, v]) => sql`(${v.merchantId}::bigint, ${id}::bigint)`),
        sql`, `,
      )}) ${merchant.and()} for update) before,
      -- The clock is read here, not in the CASEs: Citus allows only immutable functions there.
      (select now() as now, now() - interval '5 days' as give_up_before) clock
      where w.merchant_id = v.merchant_id and w.id = v.id and before.merchant_id = w.merchant_id
        and before.id = w.id ${merchant.and("w.merchant_id")}
      returning w.id, w.merchant_id, w.kind, w.url, w.description, w.event_types, w.enabled, w.disabled_reason,
                w.inbox_response_status, w.inbox_response_timeout, w.inbox_response_remaining,
                w.created_at, before.enabled as was_enabled`,
    );
    // Merchant order, so two batches take the merchants' event counts in the same order.
    const disabled = endpoints
      .filter((row) => row.was_enabled && !row.enabled)
      .sort((a, b) => Number(a.merchant_id) - Number(b.merchant_id));
    for (const row of disabled) {
      await recordEndpointDisabledEvent(tx, Number(row.merchant_id), {
        ...endpointResource({
          id: Number(row.id),
          kind: row.kind,
          url: row.url,
          description: row.description,
          eventTypes: row.event_types,
          enabled: false,
          inboxResponseStatus: row.inbox_response_status,
          inboxResponseTimeout: row.inbox_response_timeout,
          inboxResponseRemaining: row.inbox_response_remaining,
          createdAt: new Date(row.created_at),
        }),
        disabled_reason: row.disabled_reason,
      });
    }
  });
}

type EndpointRow = {
  id: number | string;
  merchant_id: number | string;
  kind: EndpointKind;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  inbox_response_status: number | null;
  inbox_response_timeout: boolean;
  inbox_response_remaining: number | null;
  created_at: Date | string;
  was_enabled: boolean;
};
