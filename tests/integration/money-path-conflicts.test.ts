// A transient database error on the money path is retried, or answered 503, never 500. A fresh clone's
// `npm test` once got a 500 from POST /api/payments/{id}/refunds on a loaded machine. Its kind is reproduced
// here: the refund's statement holds the payment's row and waits for its event's hourly count while another
// transaction holds that count and waits for the payment's row; PostgreSQL breaks the deadlock by aborting
// the side that waited first (the refund, 40P01), which was answered 500. PostgreSQL only: two sessions.
import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";

const baseUrl = inject("baseUrl");
const { tokens, seed } = inject("data");
const api = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
  callApi(baseUrl, path, { ...request, token: tokens.api });

describe.skipIf(!process.env.DATABASE_URL)("a deadlock on the money path", () => {
  it("a refund whose statement PostgreSQL aborts to break a deadlock is retried: 201, one refund", async () => {
    const created = await api("/api/payments", { json: { amount: "8.00" } });
    const paymentId = Number(created.headers.get("location")!.split("/").at(-1));
    expect(
      (await api(`/api/test-helpers/payments/${paymentId}/settle`, { json: { outcome: "completed" } }))
        .status,
    ).toBe(200);
    const other = postgres(process.env.DATABASE_URL!, {
      max: 1,
      prepare: process.env.DATABASE_PREPARED_STATEMENTS !== "false",
      onnotice: () => {},
    });
    let refund: Promise<Awaited<ReturnType<typeof api>>> | undefined;
    try {
      await other.begin(async (tx) => {
        // This hour's count of refund.created for the merchant, held as a concurrent event writer holds it.
        await tx`insert into event_hourly_counts as counts (merchant_id, type, hour, count)
                 values (${seed.merchant_id}, 'refund.created', date_bin('1 hour', now(), timestamptz '2000-01-01 00:00:00+00'), 0)
                 on conflict (merchant_id, type, hour) do update set count = counts.count`;
        refund = api(`/api/payments/${paymentId}/refunds`, { json: { amount: "3.00" } });
        // The refund now holds the payment's row and waits for the count; this side asks for the row.
        await new Promise((resolve) => setTimeout(resolve, 400));
        await tx`select id from payments where merchant_id = ${seed.merchant_id} and id = ${paymentId} for update`;
      });
      const answered = await refund!;
      expect([answered.status, (answered.body as { data?: { amount: string } }).data?.amount]).toEqual([
        201,
        "3.00",
      ]);
    } finally {
      await other.end();
    }
    const refunds = (await api(`/api/payments/${paymentId}/refunds`)).body as { meta: { total: number } };
    expect(refunds.meta.total).toBe(1);
  });
});
