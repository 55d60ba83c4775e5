import { memberForRoute } from "@/app/_lib/session";
import { getDb } from "@/db/client";
import { readDbFor } from "@/db/replicas";
import { environmentStillExists } from "@/lib/environments/environments";
import { readPaymentFilters } from "@/lib/payments/filters";
import { exportPayments } from "@/lib/payments/search";
import { csvResponse } from "@/lib/platform/csv";

const HEADER = [
  "id",
  "external_id",
  "customer_id",
  "status",
  "amount",
  "currency",
  "amount_refunded",
  "fee",
  "net",
  "created_at",
  "settled_at",
  "failure_code",
  "failure_reason",
] as const;

/** Streams every payment matching the dashboard's filters as CSV, a keyset batch at a time. */
export async function GET(request: Request): Promise<Response> {
  // Checked against the database, as every page is: a removed member's session exports nothing.
  const member = await memberForRoute();
  if (!member) return new Response("Log in to export payments.", { status: 401 });
  const { merchantId, environment } = member;
  const { filters } = readPaymentFilters(
    Object.fromEntries(new URL(request.url).searchParams),
    environment.reportTimezone,
  );
  return csvResponse({
    header: HEADER,
    // Streamed, so it cannot be run again elsewhere halfway: the replica (or primary) is chosen once.
    batches: exportPayments(await readDbFor(merchantId), merchantId, filters),
    toFields: (row) => [
      row.id,
      row.external_id,
      row.customer_id,
      row.status,
      row.amount,
      row.currency,
      row.amount_refunded,
      row.fee,
      row.net,
      new Date(row.created_at),
      row.settled_at ? new Date(row.settled_at) : null,
      row.failure_code,
      row.failure_reason,
    ],
    filename: `payments-${new Date().toISOString().slice(0, 10)}.csv`,
    // A sandbox deleted while this streams cuts the download off (on the primary, where deletion happens).
    stillThere: environmentStillExists(getDb(), merchantId),
  });
}
