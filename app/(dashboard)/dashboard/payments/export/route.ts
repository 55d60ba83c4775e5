import { memberForRoute } from "@/app/_lib/session";
import { readDbFor } from "@/db/replicas";
import { readPaymentFilters } from "@/lib/payments/filters";
import { exportPayments, type CsvBatch } from "@/lib/payments/search";

function csvField(value: string | number | Date | null): string {
  const text = value === null ? "" : value instanceof Date ? value.toISOString() : String(value);
  // Quote everything that needs it, and defuse spreadsheet formulas in merchant-supplied text (a negative
  // amount, "-0.10", is a number, not a formula).
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

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
  const { merchantId } = member;
  const { filters } = readPaymentFilters(Object.fromEntries(new URL(request.url).searchParams));
  // Streamed, so it cannot be run again elsewhere halfway: the replica (or primary) is chosen once.
  const batches = exportPayments(await readDbFor(merchantId), merchantId, filters);
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${HEADER.join(",")}\n`));
    },
    // Pulled only as fast as the client reads, so memory stays flat for any number of rows.
    async pull(controller) {
      const next: IteratorResult<CsvBatch> = await batches.next();
      if (next.done) return controller.close();
      const value = next.value;
      controller.enqueue(
        encoder.encode(
          value
            .map((row) =>
              [
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
              ]
                .map(csvField)
                .join(","),
            )
            .join("\n") + "\n",
        ),
      );
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="payments-${new Date().toISOString().slice(0, 10)}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
