import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { appOrigin } from "@/lib/platform/env";
import { keysetCursorSchema, readKeysetPage, type KeysetPage } from "@/lib/platform/keyset-pages";
import { newestFirstBatches } from "@/lib/platform/newest-first-batches";
import { isoTimestamp } from "@/lib/platform/timestamps";
import { isCalendarDay } from "@/lib/platform/validation";

// The merchant's security history (DESIGN.md, "Security history…"): one row per sensitive action, written by
// the action's own transaction, read by owners on Settings → Security history. Nothing edits or deletes a row.

/** Every action the history records, with the words the page shows. */
export const SECURITY_ACTIONS = {
  "user.signed_in": "Signed in",
  "user.sign_in_failed": "Sign-in failed",
  "user.signed_out_everywhere": "Signed out of all other sessions",
  "user.password_changed": "Password changed",
  "user.two_factor_enabled": "Two-factor turned on",
  "user.two_factor_disabled": "Two-factor turned off",
  "user.reauthentication_required": "Password asked again",
  "user.reauthentication_failed": "Password re-entered wrongly",
  "member.invited": "Member invited",
  "member.joined": "Member joined",
  "member.removed": "Member removed",
  "member.role_changed": "Member's role changed",
  "api_token.created": "API key created",
  "api_token.rolled": "API key rolled",
  "api_token.revoked": "API key revoked",
  "webhook_endpoint.created": "Webhook endpoint created",
  "webhook_endpoint.deleted": "Webhook endpoint deleted",
  "webhook_secret.revealed": "Signing secret revealed",
  "webhook_secret.rotated": "Signing secret rotated",
  "payout_account.changed": "Payout account changed",
  "payout.created": "Payout made",
  "payout.refused": "Payout refused during a hold",
  "payout.canceled": "Payout canceled",
  "pricing.changed": "Pricing changed",
  "processor.connected": "Processor connected",
  "account_key.created": "Account key created",
  "sandbox.created": "Sandbox created",
  "sandbox.renamed": "Sandbox renamed",
  "sandbox.deleted": "Sandbox deleted",
} as const;
export type SecurityAction = keyof typeof SECURITY_ACTIONS;
const ACTION_NAMES = Object.keys(SECURITY_ACTIONS) as [SecurityAction, ...SecurityAction[]];

/**
 * Who did it and from where: a dashboard user (their email), an API token (`name (pay_…a1b2)`), or an operator's
 * command (`operator`). The IP and user agent are the request's; an operator's command has neither.
 */
export type SecurityActor = {
  actor: string;
  ip: string | null;
  userAgent: string | null;
  /** Set when an API key acts: the mail about a change says to revoke that key. */
  tokenId?: number;
};

export const OPERATOR: SecurityActor = { actor: "operator", ip: null, userAgent: null };

/** An API token as an actor or a target: its name and the hint the dashboard shows, never the secret. */
export const tokenLabel = (token: { name: string; displayHint: string }) =>
  `${token.name} (${token.displayHint})`;

/** A key acting, as the history and the mails name it: the key and the person who made it. */
export const keyActorLabel = (token: { name: string; displayHint: string; createdBy: string | null }) =>
  token.createdBy ? `${tokenLabel(token)}, made by ${token.createdBy}` : tokenLabel(token);

/** What an owner who did not make a change does about it, with the page's link: revoke the key, or remove the member. */
export function remedyFor(by: SecurityActor): string {
  if (by.tokenId !== undefined)
    return `revoke the key ${by.actor.split(", made by")[0]} in API keys (${appOrigin()}/dashboard/api-keys).`;
  if (by === OPERATOR || by.actor === OPERATOR.actor) return "contact support.";
  return `if ${by.actor} is not you, remove that member in Team (${appOrigin()}/dashboard/team).`;
}

/** A user agent is kept to 512 characters: enough to tell browsers apart, never a megabyte header. */
const USER_AGENT_MAX = 512;
const TARGET_MAX = 1000;

/**
 * Appends one record, in the caller's transaction (the action's own), so an action and its record commit or
 * roll back together. One INSERT into the current week's partition, made ahead by the partition service.
 */
export async function recordSecurityEvent(
  db: Executor,
  merchantId: number,
  by: SecurityActor,
  action: SecurityAction,
  target: string,
): Promise<void> {
  // The history is the account's (DESIGN.md, "Live and sandboxes"): an action in live or in another sandbox is
  // recorded there, saying where it was taken.
  const [where] = await selectRows<{
    account_id: number | string | null;
    environment: string;
    sandbox_name: string;
  }>(db, sql`select account_id, environment, sandbox_name from merchants where id = ${merchantId}`);
  const accountId = where?.account_id == null ? merchantId : Number(where.account_id);
  const place =
    accountId === merchantId
      ? ""
      : where!.environment === "live"
        ? " · live"
        : ` · sandbox ${where!.sandbox_name}`;
  await db.execute(
    sql`insert into security_events (merchant_id, action, actor, ip, user_agent, target)
        values (${accountId}, ${action}, ${by.actor}, ${by.ip}, ${by.userAgent?.slice(0, USER_AGENT_MAX) ?? null},
                ${target.slice(0, TARGET_MAX - place.length) + place})`,
  );
}

/** A record as the page and its CSV show it. */
export type SecurityEvent = {
  id: number;
  action: SecurityAction;
  actor: string;
  ip: string | null;
  userAgent: string | null;
  target: string;
  createdAt: string;
};

type Row = {
  id: number | string;
  action: SecurityAction;
  actor: string;
  ip: string | null;
  user_agent: string | null;
  target: string;
  created_at: Date | string;
};

const toSecurityEvent = (row: Row): SecurityEvent => ({
  id: Number(row.id),
  action: row.action,
  actor: row.actor,
  ip: row.ip,
  userAgent: row.user_agent,
  target: row.target,
  createdAt: isoTimestamp(row.created_at),
});

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => value || undefined)
    .optional()
    .catch(undefined);
const optionalDay = z.string().refine(isCalendarDay).optional().catch(undefined);

/**
 * The page's filters, from its URL: an action; who (`by`: part of an email or a key's name or hint, so a
 * person's filter finds what their keys did too, "…, made by dave@…"); an IP; UTC days from and to (both
 * inclusive). A value that cannot be read is ignored (no filter), never an error page.
 */
export const securityHistoryFiltersSchema = z.object({
  action: z.enum(ACTION_NAMES).optional().catch(undefined),
  by: optionalText(320),
  ip: optionalText(64),
  from: optionalDay,
  to: optionalDay,
  ...keysetCursorSchema.shape,
});
export type SecurityHistoryFilter = Pick<SecurityHistoryFilters, "action" | "by" | "ip" | "from" | "to">;
export type SecurityHistoryFilters = z.infer<typeof securityHistoryFiltersSchema>;

export const SECURITY_HISTORY_PAGE_SIZE = 25;
const COLUMNS = sql.raw("id, action, actor, ip, user_agent, target, created_at");

function conditionsOf(merchantId: number, { action, by, ip, from, to }: SecurityHistoryFilter): SQL {
  const conditions = [sql`merchant_id = ${merchantId}`];
  if (action) conditions.push(sql`action = ${action}`);
  if (by) conditions.push(sql`strpos(lower(actor), lower(${by})) > 0`);
  if (ip) conditions.push(sql`ip = ${ip}`);
  if (from) conditions.push(sql`created_at >= ${`${from}T00:00:00Z`}::timestamptz`);
  if (to) conditions.push(sql`created_at < ${`${to}T00:00:00Z`}::timestamptz + interval '1 day'`);
  return sql.join(conditions, sql` and `);
}

/** Newest first, paged by id (lib/platform/keyset-pages.ts), so the millionth record costs what the first does. */
export async function listSecurityEvents(
  db: Executor,
  merchantId: number,
  filters: SecurityHistoryFilters,
): Promise<KeysetPage<SecurityEvent>> {
  const where = conditionsOf(merchantId, filters);
  return readKeysetPage(
    filters,
    SECURITY_HISTORY_PAGE_SIZE,
    async ({ before, after, order, limit }) => {
      const direction = order === "asc" ? sql`asc` : sql`desc`;
      const rows = await selectRows<Row>(
        db,
        sql`select ${COLUMNS} from security_events
            where ${where}${before === undefined ? sql`` : sql` and id < ${before}`}${after === undefined ? sql`` : sql` and id > ${after}`}
            order by created_at ${direction}, id ${direction} limit ${limit}`,
      );
      return rows.map(toSecurityEvent);
    },
    async (cap, newerThan) => {
      const [row] = await selectRows<{ total: number | string; newer: number | string }>(
        db,
        sql`select count(*) as total, count(*) filter (where id > ${newerThan ?? Number.MAX_SAFE_INTEGER}) as newer
            from (select id from security_events where ${where}
                  order by created_at desc, id desc limit ${cap}) newest`,
      );
      return { total: Number(row!.total), newer: Number(row!.newer) };
    },
  );
}

/** Every record of a filter, newest first, in keyset batches: the history's CSV, memory flat at any size. */
export async function* exportSecurityEvents(
  db: Executor,
  merchantId: number,
  filter: SecurityHistoryFilter,
  batchSize = 5000,
): AsyncGenerator<SecurityEvent[], void> {
  const batches = newestFirstBatches<Row>(
    db,
    {
      columns: COLUMNS,
      from: "security_events",
      where: conditionsOf(merchantId, filter),
    },
    batchSize,
  );
  for await (const rows of batches) yield rows.map(toSecurityEvent);
}

/** Whether `actor` did `action` on the merchant within the last `minutes` (a notice that follows an action). */
export async function didLately(
  db: Executor,
  merchantId: number,
  action: SecurityAction,
  actor: string,
  minutes: number,
): Promise<boolean> {
  const rows = await selectRows(
    db,
    sql`select 1 from security_events
        where merchant_id = ${merchantId} and action = ${action} and actor = ${actor}
          and created_at > now() - make_interval(mins => ${minutes}) limit 1`,
  );
  return rows.length > 0;
}

/**
 * Runs an action and, when an actor is given, records it in the same transaction (a savepoint inside the
 * caller's): both commit or neither does, and a refused action (it throws) leaves no record. Without an actor
 * (seeds, tests of the domain alone) the action runs as it always did.
 */
export async function recorded<T>(
  db: Executor,
  merchantId: number,
  by: SecurityActor | undefined,
  action: SecurityAction,
  work: (db: Executor) => Promise<T>,
  target: (result: T) => string,
): Promise<T> {
  if (!by) return work(db);
  return db.transaction(async (tx) => {
    const result = await work(tx);
    await recordSecurityEvent(tx, merchantId, by, action, target(result));
    return result;
  });
}
