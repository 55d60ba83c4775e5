import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { ACCOUNT_KEY_SCOPE } from "@/db/enums";
import { merchants } from "@/db/schema";
import { getEnv } from "@/lib/platform/env";
import { DomainError, validationError } from "@/lib/platform/errors";
import { parseInput, stringField } from "@/lib/platform/validation";
import { recordSecurityEvent, type SecurityActor } from "@/lib/security/history";
import { insertToken } from "@/lib/tokens/tokens";
import { readClockStart } from "./clock-input";

// An account's environments (DESIGN.md, "Live and sandboxes"). Each is a merchants row, so every table's
// merchant_id keeps its data apart by the scoping rules that already hold (and Citus shards it the same way).
// The account's own row is also its first sandbox, "Test"; live and the other sandboxes name it in account_id.

/** The account's environments: its own row (its first sandbox) and the rows that name it. */
const ofAccount = (accountId: number) =>
  sql`(${merchants.id} = ${accountId} or ${merchants.accountId} = ${accountId})`;

export type Sandbox = { id: number; name: string; createdAt: Date; clockAt: Date | null };

const SANDBOX_COLUMNS = {
  id: merchants.id,
  name: merchants.sandboxName,
  createdAt: merchants.createdAt,
  clockAt: merchants.clockAt,
};

/** A sandbox as the API shows it. */
export const toSandboxResource = (sandbox: Sandbox) => ({
  id: sandbox.id,
  name: sandbox.name,
  environment: "sandbox" as const,
  created_at: sandbox.createdAt.toISOString(),
  clock: sandbox.clockAt?.toISOString() ?? null,
});

/**
 * A new environment of the account (live, or a sandbox named `sandboxName`), empty, starting with the settings
 * of `settingsFrom` (the account's own row unless told). A sandbox on a test clock is made at its clock's time.
 * Returns its id and when it was made.
 */
async function insertEnvironment(
  db: Executor,
  accountId: number,
  sandboxName: string | null,
  clockAt?: Date,
  settingsFrom = accountId,
) {
  const clock = clockAt ? clockAt.toISOString() : null;
  const [row] = await selectRows<{ id: number | string; created_at: Date | string }>(
    db,
    sql`insert into merchants (name, account_id, environment, sandbox_name, default_currency, report_timezone,
                               fee_percent, fee_fixed, payout_schedule, rate_limit_per_minute, clock_at, created_at)
        select name, id, ${sandboxName === null ? "live" : "sandbox"}, ${sandboxName}, default_currency,
               report_timezone, fee_percent,
               fee_fixed, payout_schedule, rate_limit_per_minute, ${clock}::timestamptz,
               coalesce(${clock}::timestamptz, now())
        from merchants where id = ${settingsFrom}
        returning id, created_at`,
  );
  return { id: Number(row!.id), createdAt: new Date(row!.created_at), clockAt: clockAt ?? null };
}

/** A new account's live environment, beside its own row (the first sandbox). */
export async function createLiveEnvironment(db: Executor, accountId: number): Promise<number> {
  return (await insertEnvironment(db, accountId, null)).id;
}

/** The account's live environment. */
export async function liveEnvironmentOf(db: Executor, accountId: number): Promise<number> {
  const [row] = await db
    .select({ id: merchants.id })
    .from(merchants)
    .where(and(eq(merchants.accountId, accountId), eq(merchants.environment, "live")));
  if (!row) throw new DomainError("not_found", "This account has no live environment.");
  return row.id;
}

/** The account's sandboxes, the first ("Test", the account's own row) first, then by creation. */
export async function listSandboxes(db: Executor, accountId: number): Promise<Sandbox[]> {
  const rows = await db
    .select(SANDBOX_COLUMNS)
    .from(merchants)
    .where(and(ofAccount(accountId), eq(merchants.environment, "sandbox")))
    .orderBy(asc(merchants.id));
  return rows.map((row) => ({ ...row, name: row.name ?? "Test" }));
}

/** An environment as the dashboard's switcher names it. */
/** `reportTimezone`: the days the dashboard's date filters and reports count in (DESIGN.md, "Time zone"). */
export type Environment = { id: number; kind: "live" | "sandbox"; name: string; reportTimezone: string };

/** Every environment of the account: live first, then the sandboxes as listSandboxes orders them. */
export async function listEnvironments(db: Executor, accountId: number): Promise<Environment[]> {
  const rows = await db
    .select({
      id: merchants.id,
      kind: merchants.environment,
      name: merchants.sandboxName,
      reportTimezone: merchants.reportTimezone,
    })
    .from(merchants)
    .where(ofAccount(accountId))
    .orderBy(sql`${merchants.environment} = 'live' desc`, asc(merchants.id));
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    name: row.kind === "live" ? "Live" : (row.name ?? "Test"),
    reportTimezone: row.reportTimezone,
  }));
}

/** The account's environment `id` (live or a sandbox), else a 422 on `field`: one a form chose. */
export async function environmentOfAccount(db: Executor, accountId: number, id: number, field: string) {
  const [row] = await db
    .select({ id: merchants.id })
    .from(merchants)
    .where(and(eq(merchants.id, id), ofAccount(accountId)));
  if (!row) throw validationError({ [field]: [`The selected ${field.replaceAll("_", " ")} is invalid.`] });
  return row.id;
}

/** The account's sandbox `sandboxId` (its first one included), else a 404: where every action on one starts. */
export async function sandboxOfAccount(db: Executor, accountId: number, sandboxId: number): Promise<Sandbox> {
  const [row] = await db
    .select(SANDBOX_COLUMNS)
    .from(merchants)
    .where(and(eq(merchants.id, sandboxId), ofAccount(accountId), eq(merchants.environment, "sandbox")));
  if (!row) throw new DomainError("not_found", "No such sandbox.");
  return { ...row, name: row.name ?? "Test" };
}

const sandboxSchema = z.object({ name: stringField("name", { max: 100, required: true }) });
const createSandboxSchema = sandboxSchema.extend({ clock: z.unknown().optional() });

/**
 * `POST /api/sandboxes`: a sandbox with the account's settings, and a test key for it (shown once). The account
 * row's lock orders creations, so the count limit (SANDBOXES_PER_ACCOUNT) and the unique name hold under a race.
 * Settings → Sandboxes may name an environment to copy the settings from (`copyFrom`; its action copies the
 * webhook endpoints, in the same transaction).
 */
export async function createSandbox(
  db: Executor,
  accountId: number,
  input: unknown,
  by: SecurityActor,
  copyFrom?: number,
) {
  const { name, clock } = parseInput(createSandboxSchema, input);
  const clockAt = readClockStart(clock);
  return db.transaction(async (tx) => {
    if (copyFrom !== undefined) await environmentOfAccount(tx, accountId, copyFrom, "copy_from");
    const [account] = await selectRows<{ sandboxes: number | string; taken: boolean }>(
      tx,
      sql`select (select count(*) from merchants s
                  where (s.id = a.id or s.account_id = a.id) and s.environment = 'sandbox') as sandboxes,
                 exists (select 1 from merchants s
                         where (s.id = a.id or s.account_id = a.id) and s.environment = 'sandbox'
                           and coalesce(s.sandbox_name, 'Test') = ${name}) as taken
          from merchants a where a.id = ${accountId} and a.account_id is null for update`,
    );
    if (!account) throw new DomainError("not_found", "No such account.");
    const limit = getEnv().SANDBOXES_PER_ACCOUNT;
    if (Number(account.sandboxes) >= limit)
      throw validationError({ name: [`An account has at most ${limit} sandboxes; delete one first.`] });
    if (account.taken) throw validationError({ name: ["The name has already been taken."] });
    const made = await insertEnvironment(tx, accountId, name, clockAt, copyFrom);
    const sandbox: Sandbox = { ...made, name };
    const key = await insertToken(tx, {
      merchantId: sandbox.id,
      name,
      scope: "write",
      payoutAccount: false,
      createdBy: by.actor,
      expiresAt: null,
    });
    await recordSecurityEvent(tx, accountId, by, "sandbox.created", `${name} (sandbox ${sandbox.id})`);
    return { sandbox, token: key.token };
  });
}

/** Settings → Sandboxes: a new name, unique in the account (the first sandbox's too). */
export async function renameSandbox(
  db: Executor,
  accountId: number,
  sandboxId: number,
  input: unknown,
  by: SecurityActor,
): Promise<string> {
  const { name } = parseInput(sandboxSchema, input);
  return db.transaction(async (tx) => {
    const sandboxes = await listSandboxes(tx, accountId);
    const sandbox = sandboxes.find((candidate) => candidate.id === sandboxId);
    if (!sandbox) throw new DomainError("not_found", "No such sandbox.");
    if (sandboxes.some((other) => other.id !== sandboxId && other.name === name))
      throw validationError({ name: ["The name has already been taken."] });
    await tx.update(merchants).set({ sandboxName: name }).where(eq(merchants.id, sandboxId));
    await recordSecurityEvent(
      tx,
      accountId,
      by,
      "sandbox.renamed",
      `${sandbox.name} → ${name} (sandbox ${sandboxId})`,
    );
    return name;
  });
}

/**
 * `DELETE /api/sandboxes/{id}`: the sandbox and all its data (every table's rows go with its merchants row). The
 * account's own row holds its team too, so the first sandbox is not deleted this way.
 */
export async function deleteSandbox(db: Executor, accountId: number, sandboxId: number, by: SecurityActor) {
  return db.transaction(async (tx) => {
    const sandbox = await sandboxOfAccount(tx, accountId, sandboxId);
    if (sandboxId === accountId)
      throw new DomainError("conflict", "The first sandbox holds the account's team and cannot be deleted.");
    // Recorded first: on Citus a write to the (distributed) history after the reference table's cascade to every
    // shard would be refused.
    await recordSecurityEvent(tx, accountId, by, "sandbox.deleted", `${sandbox.name} (sandbox ${sandboxId})`);
    await tx.delete(merchants).where(eq(merchants.id, sandboxId));
  });
}

/** Whether an environment still exists: a long read of one (a CSV export) asks at its end (lib/platform/csv.ts). */
export function environmentStillExists(db: Executor, merchantId: number): () => Promise<boolean> {
  return async () =>
    (await db.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId))).length > 0;
}

/** An account key (`pay_acct_…`, scope `sandboxes`): made by an owner or an operator, recorded, shown once. */
export async function createAccountKey(db: Executor, accountId: number, name: string, by: SecurityActor) {
  if (!name.trim()) throw validationError({ name: ["The name field is required."] });
  return db.transaction(async (tx) => {
    const key = await insertToken(tx, {
      merchantId: accountId,
      name,
      scope: ACCOUNT_KEY_SCOPE,
      payoutAccount: false,
      createdBy: by.actor,
      expiresAt: null,
    });
    await recordSecurityEvent(tx, accountId, by, "account_key.created", `${name}, ${ACCOUNT_KEY_SCOPE}`);
    return key;
  });
}
