import type { PaymentFailureCode } from "@/db/enums";

/**
 * The one narrow interface to whoever settles payments. The contract shows no payment method or payer flow,
 * so a simulator sits behind it; a real acquirer would implement the same method.
 */
export type SettlementOutcome = "completed" | "failed";

/**
 * How a pending payment ends, and for a failure, why: a code for the merchant's program and words for people
 * (both on the payment and in its event).
 */
export type Settlement =
  | { outcome: "completed"; failureCode: null; failureReason: null }
  | { outcome: "failed"; failureCode: PaymentFailureCode; failureReason: string };

/** A payment that completes: nothing to say why. */
export const COMPLETED: Settlement = { outcome: "completed", failureCode: null, failureReason: null };

export type PaymentProcessor = {
  /** The settlement of a pending payment, decided when it comes due. */
  settle(payment: { amount: string }): Settlement;
};

/** The failure ranges' bounds, in the simulator's own words. */
const FAILING_RANGE = { from: 2000, to: 2999 };

/**
 * Deterministic, so merchants can test both paths from the API: an amount from 2000.00 to 2999.99 fails,
 * any other completes.
 */
export const simulatedProcessor: PaymentProcessor = {
  settle({ amount }) {
    const whole = Number(amount.split(".")[0]);
    if (whole < FAILING_RANGE.from || whole > FAILING_RANGE.to) return COMPLETED;
    return {
      outcome: "failed",
      failureCode: "processor_declined",
      failureReason: `Declined by the test processor: the amount is in the ${FAILING_RANGE.from}.00–${FAILING_RANGE.to}.99 test range, which always fails.`,
    };
  },
};
