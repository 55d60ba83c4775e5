import { notFound } from "next/navigation";
import { formatMoney } from "@/components/format";
import { getDb } from "@/db/client";
import { findCheckout } from "@/lib/checkout/checkout-page";
import { decodeFieldErrors } from "@/lib/checkout/test-cards";
import { PROCESSOR_NAMES } from "@/lib/processors/names";
import { CheckoutForm } from "./checkout-form";
import { CheckoutResult } from "./checkout-result";
import { payerRetryAt } from "../../address-retry";
import { PayerPanel } from "../../payer-panel";

/** The hosted page at `checkout_url` (DESIGN.md, "Checkout"): no login, the token is the whole grant. */
export default async function CheckoutPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ error?: string; fields?: string }>;
}) {
  const { token } = await params;
  const [page, retryAt] = await Promise.all([findCheckout(getDb(), token), payerRetryAt()]);
  if (!page) notFound();
  const { error, fields } = await searchParams;
  return (
    <PayerPanel
      merchantName={page.merchantName}
      amount={page.amount}
      currency={page.currency}
      title={page.link?.name}
      description={page.link?.description}
      reference={page.externalId}
    >
      {page.status === "pending" && page.processor === "simulator" ? (
        <CheckoutForm
          path={`/pay/${token}`}
          amount={formatMoney(page.amount, page.currency)}
          authentication={page.authentication}
          locked={page.locked}
          retryAt={retryAt}
          refusal={fields ? undefined : error}
          fieldErrors={decodeFieldErrors(fields)}
        />
      ) : (
        <CheckoutResult
          status={page.status}
          failureReason={page.failureReason}
          paymentMethod={page.paymentMethod}
          returnUrl={page.returnUrl}
          processorName={page.processor === "simulator" ? undefined : PROCESSOR_NAMES[page.processor]}
        />
      )}
    </PayerPanel>
  );
}
