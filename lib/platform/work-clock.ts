import "server-only";
import { sql, type SQL } from "drizzle-orm";

/**
 * The time a time-driven step runs at, and whose rows it takes (DESIGN.md, "Test clock"). The background
 * services run on real time over every environment but the sandboxes on a test clock, which stand still between
 * advances; an advance runs the same steps over its one sandbox at the clock's time.
 */
export type WorkClock = {
  /** The step's now, as SQL. */
  now: SQL;
  /** A condition on the merchant's id column (`merchant_id` unless named): the environments this step covers. */
  covers(column?: string): SQL;
};

export const REAL_TIME: WorkClock = {
  now: sql`now()`,
  covers: (column = "merchant_id") =>
    sql`${sql.raw(column)} not in (select id from merchants where clock_at is not null)`,
};

/** One sandbox at `at` on its test clock. */
export function sandboxClockAt(merchantId: number, at: Date): WorkClock {
  return {
    now: sql`${at.toISOString()}::timestamptz`,
    covers: (column = "merchant_id") => sql`${sql.raw(column)} = ${merchantId}::bigint`,
  };
}
