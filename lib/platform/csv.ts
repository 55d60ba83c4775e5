// CSV downloads (payments, a payout's transactions): streamed a batch at a time, as fast as the client reads.

export type CsvValue = string | number | Date | null;

/** One field: quoted when it must be, and merchant-supplied text that a spreadsheet would run defused. */
export function csvField(value: CsvValue): string {
  const text = value === null ? "" : value instanceof Date ? value.toISOString() : String(value);
  // A negative amount, "-0.10", is a number, not a formula.
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * A CSV download: the header, then each batch's rows as `toFields` lays them out. Pulled only as fast as the
 * client reads, so memory stays flat for any number of rows; a client that goes away ends the batches.
 */
export function csvResponse<Row>(options: {
  header: readonly string[];
  batches: AsyncGenerator<Row[], void>;
  toFields: (row: Row) => CsvValue[];
  filename: string;
}): Response {
  const { header, batches, toFields, filename } = options;
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${header.join(",")}\n`));
    },
    async pull(controller) {
      const next = await batches.next();
      if (next.done) return controller.close();
      const lines = next.value.map((row) => toFields(row).map(csvField).join(","));
      controller.enqueue(encoder.encode(lines.map((line) => `${line}\n`).join("")));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}
