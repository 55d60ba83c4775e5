import { Alert } from "@/components/ui/alert";
import { buttonClassName } from "@/components/ui/button";
import type { PaymentStatus } from "@/db/enums";
import type { PaymentMethod } from "@/db/schema";
import { cardLabel } from "@/lib/checkout/test-cards";

/** A final payment's outcome, as the page shows it to whoever opens it after (a second tab, a reload). */
export function CheckoutResult({
  status,
  failureReason,
  paymentMethod,
  returnUrl,
}: {
  status: PaymentStatus;
  failureReason: string | null;
  paymentMethod: PaymentMethod | null;
  returnUrl: string | null;
}) {
  return (
    <div className="space-y-4">
      {status === "completed" ? (
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
