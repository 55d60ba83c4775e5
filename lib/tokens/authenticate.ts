import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { onCitus } from "@/db/citus";
import { selectRows, selectStatement, type Executor } from "@/db/client";
import type { ConnectedProcessor, EnvironmentKind, KeyScope } from "@/db/enums";
import { Statement } from "@/db/statement";
import {
  countRequest,
  countRequestAlone,
  rateLimitDecision,
  type RateLimitDecision,
} from "@/lib/platform/rate-limit";
import { hashToken, isWellFormedToken } from "./format";

export type AuthenticatedToken = {
  tokenId: number;
  merchantId: number;
  scope: KeyScope;
  /** The merchant's default currency, read in the same statement: a payment created without one is in it. */
  defaultCurrency: string;
  /** The IANA zone its reports' days are in when a request names none (DESIGN.md, "Time zone"). */
  reportTimezone: string;
  /** Where the key works (DESIGN.md, "Live and sandboxes"): test helpers are 404 in live. */
  environment: EnvironmentKind;
  /** The processor its environment's owners connected; null: the simulator (DESIGN.md, "Processors"). */
  processor: ConnectedProcessor | null;
};
export type ApiAuthentication = { token: AuthenticatedToken; rateLimit: RateLimitDecision } | { token: null };

/** `last_used_at` is refreshed when older than this, so a busy token costs one write a minute, not one a request. */
const LAST_USED_RESOLUTION = "1 minute";

/**
 * A token that authenticates now: not revoked (a roll's grace puts revocation in the future), not expired.
 * A deleted merchant's tokens are deleted with it. `expiryNow`: the time its expiry is read against, where the
 * statement has its merchant (a sandbox's test clock; revocation is a person's act, on real time).
 */
export function tokenIsLive(alias: SQL, expiryNow: SQL = sql`now()`): SQL {
  return sql`(${alias}.revoked_at is null or ${alias}.revoked_at > now())
          and (${alias}.expires_at is null or ${alias}.expires_at > ${expiryNow})`;
}

/**
 * Which of these tokens still authenticate: what a long-lived connection (an event stream) checks before it
 * sends more, since its request was authenticated only once, when it opened.
 */
export async function liveTokenIds(db: Executor, tokenIds: number[]): Promise<Set<number>> {
  const rows = await selectRows<{ id: number | string }>(
    db,
    sql`select t.id from api_tokens t
        where t.id = any(string_to_array(${tokenIds.join(",")}, ',')::bigint[]) and ${tokenIsLive(sql`t`)}`,
  );
  return new Set(rows.map((row) => Number(row.id)));
}

/**
 * Whether a bearer token authenticates and may write, without counting a request: asked before a body that
 * may be larger than the API's 16 KiB is read (a dispute's evidence, up to 1 MiB; only write routes take one),
 * so that no one without such a token makes the server hold it. The request is then authenticated and counted
 * as any other (the caller's address is counted then, for a token that is none).
 */
export async function isLiveWriteToken(db: Executor, token: string): Promise<boolean> {
  if (!isWellFormedToken(token)) return false;
  const [row] = await selectRows(
    db,
    sql`select 1 from api_tokens t
        where t.token_hash = ${hashToken(token)} and t.scope = 'write' and ${tokenIsLive(sql`t`)}`,
  );
  return row !== undefined;
}

/** The live token with this hash, its merchant's default currency and its rate limit per minute. */
export function tokenLookup(tokenHash: string, defaultPerMinute: number): SQL {
  return sql`select t.id, t.merchant_id, t.scope, t.last_used_at, m.default_currency, m.report_timezone, m.environment,
                    m.processor,
                    coalesce(m.rate_limit_per_minute, ${defaultPerMinute})::int as per_minute
             from api_tokens t
             join merchants m on m.id = t.merchant_id
             where t.token_hash = ${tokenHash} and ${tokenIsLive(sql`t`, sql`coalesce(m.clock_at, now())`)}`;
}

/** Whether a token's `last_used_at` is due a refresh (at most once a minute). */
const lastUsedStale = (alias: string) =>
  sql`(${sql.raw(alias)}.last_used_at is null or ${sql.raw(alias)}.last_used_at < now() - ${LAST_USED_RESOLUTION}::interval)`;

/** The auth + rate-limit statement, exported so the benchmark's bare baseline runs exactly the same SQL. */
export function authenticationQuery(tokenHash: string, defaultPerMinute: number): SQL {
  return sql`
      with token as (${tokenLookup(tokenHash, defaultPerMinute)}),
      touched as (
        update api_tokens set last_used_at = now()
        where id = (select id from token where ${lastUsedStale("token")})
      ),
      bucket as (${countRequest({ key: sql`'token:' || token.id`, perPeriod: sql`token.per_minute`, from: sql`token` })})
      select token.id, token.merchant_id, token.scope, token.default_currency, token.report_timezone,
             token.environment, token.processor,
             token.per_minute,
             bucket.allowed, bucket.ahead_seconds
      from token, bucket`;
}

/** The auth + rate-limit statement, compiled once; the benchmark's bare baseline runs it too. */
export const authenticationStatement = new Statement<
  { tokenHash: string; defaultPerMinute: number },
  {
    id: number | string;
    merchant_id: number | string;
    scope: KeyScope;
    default_currency: string;
    report_timezone: string;
    environment: EnvironmentKind;
    processor: ConnectedProcessor | null;
    per_minute: number;
    allowed: boolean;
    ahead_seconds: number;
  }
>((values) => authenticationQuery(values.tokenHash, values.defaultPerMinute));

type AuthenticationRow = (typeof authenticationStatement)["rowType"];

/**
 * On Citus the one statement above would be planned in steps (a write to a reference table and to the
 * coordinator's buckets in one statement): the token is read first (reference tables, on whichever node this
 * process is given), then the request counted in its bucket (on the coordinator), and `last_used_at` refreshed
 * once a minute.
 */
async function authenticateOnCitus(
  db: Executor,
  tokenHash: string,
  defaultPerMinute: number,
): Promise<AuthenticationRow[]> {
  const [token] = await selectRows<Omit<AuthenticationRow, "allowed" | "ahead_seconds"> & { stale: boolean }>(
    db,
    sql`select token.*, ${lastUsedStale("token")} as stale from (${tokenLookup(tokenHash, defaultPerMinute)}) token`,
  );
  if (!token) return [];
  const bucket = await countRequestAlone(db, `token:${token.id}`, token.per_minute);
  if (token.stale)
    await selectRows(db, sql`update api_tokens set last_used_at = now() where id = ${token.id}`);
  return [{ ...token, ...bucket }];
}

/**
 * Authenticates a bearer token and counts the request against its rate limit in one database round trip:
 * a malformed token or a bad checksum never reaches the database; a revoked or expired one matches no row.
 */
export async function authenticateApiToken(
  db: Executor,
  token: string,
  defaultPerMinute: number,
): Promise<ApiAuthentication> {
  if (!isWellFormedToken(token)) return { token: null };
  const rows = onCitus()
    ? await authenticateOnCitus(db, hashToken(token), defaultPerMinute)
    : await selectStatement(db, authenticationStatement, { tokenHash: hashToken(token), defaultPerMinute });
  const row = rows[0];
  if (!row) return { token: null };
  return {
    token: {
      tokenId: Number(row.id),
      merchantId: Number(row.merchant_id),
      scope: row.scope,
      defaultCurrency: row.default_currency,
      reportTimezone: row.report_timezone,
      environment: row.environment,
      processor: row.processor,
    },
    rateLimit: rateLimitDecision(row.per_minute, row.allowed, Number(row.ahead_seconds)),
  };
}
