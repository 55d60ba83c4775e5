import type { Metadata } from "next";
import { formatMoney } from "@/components/format";
import { RelativeTime } from "@/components/relative-time";
import { FieldGrid } from "@/components/ui/field-grid";
import { SectionHeading } from "@/components/ui/section-heading";
import { BackLink } from "@/components/ui/simple-table";
import { getDb } from "@/db/client";
import { can } from "@/lib/accounts/permissions";
import { listPaymentLinkPayments } from "@/lib/checkout/payment-links";
import { FirstPayments } from "../../payments/(list)/payments-table";
import { LinkStatus, LinkToggle, LinkUrl } from "../link-parts";
import { loadPaymentLink } from "./load-link";

type Props = { params: Promise<{ id: string }> };

/** The newest payments shown; a link's page is for a glance, Payments for the rest. */
const SHOWN = 100;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { record: link } = await loadPaymentLink(params);
  return { title: link.name };
}

/** One payment link: its URL, what it asks, how many paid, and the payments its payers made. */
export default async function PaymentLinkPage({ params }: Props) {
  const { merchantId, role, record: link } = await loadPaymentLink(params);
  const payments = await listPaymentLinkPayments(getDb(), merchantId, link.id, SHOWN);
  const fields: Array<[string, React.ReactNode]> = [
    ["Amount", formatMoney(link.amount, link.currency)],
    ["Paid", link.paid_count.toLocaleString("en-US")],
    ["Payments", payments.total.toLocaleString("en-US")],
    ["Description", link.description ?? "—"],
    ["Created", <RelativeTime key="created" value={link.created_at} />],
    ["Status", <LinkStatus key="status" link={link} />],
  ];
  return (
    <div className="max-w-6xl space-y-6">
      <div>
        <BackLink href="/dashboard/payment-links">Payment links</BackLink>
        <h1 className="mt-2 text-2xl font-semibold [overflow-wrap:anywhere]">{link.name}</h1>
      </div>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <LinkUrl link={link} />
        {can(role, "payments:write") ? <LinkToggle link={link} /> : null}
      </div>
      <FieldGrid fields={fields} columns={3} />
      <section aria-labelledby="link-payments" className="space-y-3">
        <SectionHeading id="link-payments" title="Payments" />
        {payments.total === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            No payments yet: a payment is made when a payer submits the link’s card form.
          </p>
        ) : (
          <FirstPayments rows={payments.items} total={payments.total} pageSize={SHOWN} />
        )}
      </section>
    </div>
  );
}
