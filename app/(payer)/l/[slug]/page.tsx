import { notFound } from "next/navigation";
import { formatMoney } from "@/components/format";
import { Alert } from "@/components/ui/alert";
import { getDb } from "@/db/client";
import { findPaymentLinkBySlug } from "@/lib/checkout/link-checkout";
import { CHECKOUT_MESSAGES, decodeFieldErrors } from "@/lib/checkout/test-cards";
import { payerRetryAt } from "../../address-retry";
import { CheckoutForm } from "../../pay/[token]/checkout-form";
import { PayerPanel } from "../../payer-panel";

/**
 * A payment link's page (DESIGN.md, "Payment links"): the link's amount and the card form. Opening or reloading
 * it makes nothing; the payment is made when the payer first submits the form, and they go on to its page.
 */
export default async function PaymentLinkPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<{ error?: string; fields?: string }>;
}) {
  const { slug } = await params;
  const [link, retryAt] = await Promise.all([findPaymentLinkBySlug(getDb(), slug), payerRetryAt()]);
  if (!link) notFound();
  const { error, fields } = await searchParams;
  return (
    <PayerPanel
      merchantName={link.merchantName}
      amount={link.amount}
      currency={link.currency}
      title={link.name}
      description={link.description}
    >
      {link.active ? (
        <CheckoutForm
          path={`/l/${slug}`}
          amount={formatMoney(link.amount, link.currency)}
          authentication={null}
          locked={false}
          retryAt={retryAt}
          refusal={fields ? undefined : error}
          fieldErrors={decodeFieldErrors(fields)}
        />
      ) : (
        <Alert tone="warning">
          {CHECKOUT_MESSAGES.inactiveLink} Ask {link.merchantName} for another.
        </Alert>
      )}
    </PayerPanel>
  );
}
