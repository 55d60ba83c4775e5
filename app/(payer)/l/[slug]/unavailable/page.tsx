import { notFound } from "next/navigation";
import { Alert } from "@/components/ui/alert";
import { buttonClassName } from "@/components/ui/button";
import { getDb } from "@/db/client";
import { findPaymentLinkBySlug } from "@/lib/checkout/payment-links";
import { CHECKOUT_MESSAGES } from "@/lib/checkout/test-cards";

/** Where `/l/{slug}` sends a payer it made no payment for: an inactive link, or too many openings. */
export default async function UnavailableLinkPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<{ reason?: string }>;
}) {
  const { slug } = await params;
  const link = await findPaymentLinkBySlug(getDb(), slug);
  if (!link) notFound();
  const limited = (await searchParams).reason === "limited";
  return (
    <div className="space-y-4 rounded-xl bg-white p-6 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
      <header className="space-y-1">
        <p className="text-sm font-medium text-zinc-600 dark:text-zinc-400">{link.merchantName}</p>
        <h1 className="text-xl font-semibold">{link.name}</h1>
      </header>
      {!link.active ? (
        <Alert tone="warning">
          This payment link is no longer active. Ask {link.merchantName} for another.
        </Alert>
      ) : limited ? (
        <Alert>{CHECKOUT_MESSAGES.locked} Try again in an hour.</Alert>
      ) : (
        // A plain link: `/l/{slug}` is a route that makes the payment, not a page to prefetch.
        <a href={`/l/${slug}`} className={buttonClassName("primary", "w-full")}>
          Continue to payment
        </a>
      )}
    </div>
  );
}
