/**
 * DESIGN.md's words for a canceled payment. A cancel is a failure with this reason (the API's status stays
 * `failed`), so this is how the dashboard tells one apart. No server-only import: badges use it in the browser.
 */
export const CANCELED_REASON = "Canceled by the merchant.";

export function wasCanceled(payment: { status: string; failure_reason?: string | null }): boolean {
  return payment.status === "failed" && payment.failure_reason === CANCELED_REASON;
}
