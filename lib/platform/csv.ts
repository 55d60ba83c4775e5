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
 * client reads, so memory stays flat for any number of rows; a client that goes away ends the batches. The
 * first batch is read before the answer starts: a query that fails is an error, never a 200 with a header only.
 */
export async function csvResponse<Row>(options: {
  header: readonly string[];
  batches: AsyncGenerator<Row[], void>;
  toFields: (row: Row) => CsvValue[];
  filename: string;
  /**
   * Whether what was read is still all there is, asked once when the batches end: a sandbox deleted while its
   * export streamed reads as an early end. False cuts the download off, so the client sees it incomplete (curl
   * exits 18, a browser marks it failed) instead of a short file that looks whole.
   */
  stillThere?: () => Promise<boolean>;
}): Promise<Response> {
  const { header, batches, toFields, filename, stillThere } = options;
  const encoder = new TextEncoder();
  const rows = (batch: Row[]) =>
    encoder.encode(batch.map((row) => `${toFields(row).map(csvField).join(",")}\n`).join(""));
  const first = await batches.next();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${header.join(",")}\n`));
      if (first.done) controller.close();
      else controller.enqueue(rows(first.value));
    },
    async pull(controller) {
      const next = await batches.next();
      if (next.done && stillThere && !(await stillThere()))
        return controller.error(new Error("The export's environment was deleted while it streamed."));
      if (next.done) return controller.close();
      controller.enqueue(rows(next.value));
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
