import { Alert } from "@/components/ui/alert";
import { buttonClassName } from "@/components/ui/button";
import type { PaymentStatus } from "@/db/enums";
import type { PaymentMethod } from "@/db/schema";
import { cardLabel } from "@/lib/checkout/test-cards";

/**
 * A payment's outcome, as the page shows it to whoever opens it after (a second tab, a reload), or to a payer
 * back from a processor's page while the processor has not yet said how it ended (it reloads itself).
 */
export function CheckoutResult({
  status,
  failureReason,
  paymentMethod,
  returnUrl,
  processorName,
}: {
  status: PaymentStatus;
  /** The processor that takes it ("Mollie", "Stripe"); undefined for the simulator. */
  processorName?: string;
  failureReason: string | null;
  paymentMethod: PaymentMethod | null;
  returnUrl: string | null;
}) {
  return (
    <div className="space-y-4">
      {status === "pending" ? (
        <Alert tone="info">
          <meta httpEquiv="refresh" content="3" />
          <p className="font-semibold">Waiting for {processorName ?? "the processor"}</p>
          <p>The payment is being confirmed. This page updates by itself.</p>
        </Alert>
      ) : status === "completed" ? (
        <Alert tone="success">
          <p className="font-semibold">Payment complete</p>
          {paymentMethod ? <p>Paid with {cardLabel(paymentMethod)}.</p> : null}
        </Alert>
      ) : (
        <Alert tone="error">
          <p className="font-semibold">Payment failed</p>
          {failureReason ? <p>{failureReason}</p> : null}
        </Alert>
      )}
      {returnUrl ? (
        <a href={returnUrl} className={buttonClassName("secondary", "w-full")}>
          Return to the merchant
        </a>
      ) : null}
    </div>
  );
}
