import type { ConnectedProcessor } from "@/db/enums";

/** A processor's name as people read it: in messages, the dashboard and the payer's page. */
export const PROCESSOR_NAMES: Record<ConnectedProcessor, string> = { mollie: "Mollie", stripe: "Stripe" };

/**
 * A payment's page in its processor's dashboard, for the merchant signed in there: Mollie's payment page;
 * Stripe's search for the Checkout Session (its test-mode dashboard for a sandbox's).
 */
export function processorDashboardUrl(processor: ConnectedProcessor, id: string, live: boolean): string {
  const encoded = encodeURIComponent(id);
  return processor === "mollie"
    ? `https://my.mollie.com/dashboard/payments/${encoded}`
    : `https://dashboard.stripe.com/${live ? "" : "test/"}search?query=${encoded}`;
}
