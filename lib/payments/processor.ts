/**
 * The one narrow interface to whoever settles payments. The contract shows no payment method or payer flow,
 * so a simulator sits behind it; a real acquirer would implement the same method.
 */
export type SettlementOutcome = "completed" | "failed";

/** How a pending payment ends, and for a failure, why (shown to the merchant on the payment). */
export type Settlement = { outcome: SettlementOutcome; failureReason: string | null };

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
    if (whole < FAILING_RANGE.from || whole > FAILING_RANGE.to)
      return { outcome: "completed", failureReason: null };
    return {
      outcome: "failed",
      failureReason: `Declined by the test processor: the amount is in the ${FAILING_RANGE.from}.00–${FAILING_RANGE.to}.99 test range, which always fails.`,
    };
  },
};
