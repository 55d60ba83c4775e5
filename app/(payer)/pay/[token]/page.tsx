import { notFound } from "next/navigation";
import { formatMoney } from "@/components/format";
import { getDb } from "@/db/client";
import { findCheckout } from "@/lib/checkout/checkouts";
import { decodeFieldErrors } from "@/lib/checkout/test-cards";
import { CheckoutForm } from "./checkout-form";
import { CheckoutResult } from "./checkout-result";

/** The hosted page at `checkout_url` (DESIGN.md, "Checkout"): no login, the token is the whole grant. */
export default async function CheckoutPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ error?: string; fields?: string }>;
}) {
  const { token } = await params;
  const page = await findCheckout(getDb(), token);
  if (!page) notFound();
  const amount = formatMoney(page.amount, page.displayCurrency);
  const { error, fields } = await searchParams;
  return (
    <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
      <header className="mb-6 space-y-1">
        <p className="text-sm font-medium text-zinc-600 dark:text-zinc-400">{page.merchantName}</p>
        <h1 className="text-3xl font-semibold tabular-nums tracking-tight">{amount}</h1>
        {page.link ? <p className="text-sm text-zinc-700 dark:text-zinc-300">{page.link.name}</p> : null}
        {page.link?.description ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{page.link.description}</p>
        ) : null}
        {page.externalId ? (
          <p className="text-xs text-zinc-500 dark:text-zinc-400">
            Reference <span className="font-mono">{page.externalId}</span>
          </p>
        ) : null}
      </header>
      {page.status === "pending" ? (
        <CheckoutForm
          token={token}
          amount={amount}
          authentication={page.authentication}
          locked={page.locked}
          refusal={fields ? undefined : error}
          fieldErrors={decodeFieldErrors(fields)}
        />
      ) : (
        <CheckoutResult
          status={page.status}
          failureReason={page.failureReason}
          paymentMethod={page.paymentMethod}
          returnUrl={page.returnUrl}
        />
      )}
      <p className="mt-6 text-center text-xs text-zinc-500 dark:text-zinc-400">
        Test mode: pay with a test card such as 4242 4242 4242 4242. No real card is charged.
      </p>
    </div>
  );
}
