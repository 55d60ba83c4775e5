/**
 * The one narrow interface to whoever settles payments. The contract shows no payment method or payer flow,
 * so a simulator sits behind it; a real acquirer would implement the same method.
 */
export type SettlementOutcome = "completed" | "failed";

export type PaymentProcessor = {
  /** The outcome for a pending payment, decided when its settlement comes due. */
  outcomeFor(payment: { amount: string }): SettlementOutcome;
};

/**
 * Deterministic, so merchants can test both paths from the API: an amount from 2000.00 to 2999.99 fails,
 * any other completes.
 */
export const simulatedProcessor: PaymentProcessor = {
  outcomeFor({ amount }) {
    const whole = Number(amount.split(".")[0]);
    return whole >= 2000 && whole <= 2999 ? "failed" : "completed";
  },
};
