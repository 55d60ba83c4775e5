import { describe, expect, it } from "vitest";
import { paymentIdOf, readEventFilters } from "@/lib/events/dashboard";

describe("readEventFilters", () => {
  it("keeps a known type, a canonical payment id and page", () => {
    expect(readEventFilters({ type: "refund.failed", payment_id: "42", page: "3" })).toEqual({
      type: "refund.failed",
      paymentId: 42,
      page: 3,
    });
  });

  it("leaves crafted values out rather than failing", () => {
    expect(readEventFilters({ type: "payment.nope", payment_id: "01", page: "0" })).toEqual({
      type: undefined,
      paymentId: undefined,
      page: 1,
    });
    expect(readEventFilters({ type: ["payment.pending", "x"], payment_id: "1e3", page: "-2" })).toEqual({
      type: undefined,
      paymentId: undefined,
      page: 1,
    });
  });
});

describe("paymentIdOf", () => {
  it("reads a payment event's id and a refund event's payment_id; a test event's sample is about none", () => {
    expect(paymentIdOf("payment.completed", { id: 7, status: "completed" })).toBe(7);
    expect(paymentIdOf("refund.created", { id: 3, payment_id: 7 })).toBe(7);
    expect(paymentIdOf("payment.pending", { id: 0 })).toBeNull();
    expect(paymentIdOf("webhook_endpoint.disabled", { id: 5 })).toBeNull();
    expect(paymentIdOf("payment.pending", null)).toBeNull();
  });
});
