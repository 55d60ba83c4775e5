import { sql, type SQL } from "drizzle-orm";

/**
 * The hour an event is counted in (table event_hourly_counts): `date_bin` on an absolute origin, so the
 * bucket does not depend on the session's time zone the way `date_trunc` on a timestamptz does.
 */
export const eventHour = (time: SQL): SQL =>
  sql`date_bin('1 hour', ${time}, timestamptz '2000-01-01 00:00:00+00')`;
