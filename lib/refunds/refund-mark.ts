/** How much of a payment has been refunded, as the dashboard marks it. */
export type RefundMark = "refunded" | "partially_refunded" | null;

/** Cents of a two-decimal amount string, as a bigint: compared exactly, never as a float. */
function cents(amount: string): bigint {
  const [whole, fraction = ""] = amount.split(".");
  return BigInt(whole + fraction.padEnd(2, "0").slice(0, 2));
}

/** "refunded" once succeeded refunds reach the amount, "partially_refunded" before, null with none. */
export function refundMark(amount: string, amountRefunded: string): RefundMark {
  const refunded = cents(amountRefunded);
  if (refunded <= 0n) return null;
  return refunded >= cents(amount) ? "refunded" : "partially_refunded";
}
