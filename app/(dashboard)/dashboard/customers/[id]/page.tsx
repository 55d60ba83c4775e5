import type { Metadata } from "next";
import { RelativeTime } from "@/components/relative-time";
import { FieldGrid } from "@/components/ui/field-grid";
import { SectionHeading } from "@/components/ui/section-heading";
import { BackLink } from "@/components/ui/simple-table";
import { readFor } from "@/db/replicas";
import { listDashboardPayments } from "@/lib/payments/search";
import { listMerchantRefunds } from "@/lib/refunds/queries";
import { loadCustomer } from "./load-customer";
import { FirstPayments } from "../../payments/(list)/payments-table";
import { RefundList } from "../../refunds/refund-list";
import { CustomerVolumes } from "../volumes";

type Props = { params: Promise<{ id: string }> };

/** How many of the customer's latest payments and refunds the page shows; the Payments page has them all. */
const SHOWN = 25;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { customer } = await loadCustomer((await params).id);
  return { title: `Customer ${customer.id}` };
}

/** One customer: what its payments and refunds add up to, its latest payments and its refunds. */
export default async function CustomerPage({ params }: Props) {
  const { merchantId, customer } = await loadCustomer((await params).id);
  const customerId = customer.id;
  const [payments, refunds] = await Promise.all([
    readFor(merchantId, (db) => listDashboardPayments(db, merchantId, { customerId }, 0, SHOWN)),
    readFor(merchantId, (db) => listMerchantRefunds(db, merchantId, { customerId }, 1, SHOWN)),
  ]);
  const figures: Array<[string, React.ReactNode]> = [
    ["Payments", customer.payments_count.toLocaleString("en-US")],
    ["Completed volume", <CustomerVolumes key="completed" volumes={customer.volumes} kind="completed" />],
    ["Refunded", <CustomerVolumes key="refunded" volumes={customer.volumes} kind="refunded" />],
    ["First payment", <RelativeTime key="first" value={customer.first_payment_at} />],
    ["Last payment", <RelativeTime key="last" value={customer.last_payment_at} />],
  ];
  return (
    <div className="max-w-6xl space-y-6">
      <div>
        <BackLink href="/dashboard/customers">Customers</BackLink>
        <h1 className="mt-2 break-all font-mono text-2xl font-semibold">{customer.id}</h1>
      </div>
      <FieldGrid fields={figures} columns={3} numeric />
      <section aria-labelledby="customer-payments" className="space-y-3">
        <SectionHeading
          id="customer-payments"
          title="Payments"
          more={{
            href: `/dashboard/payments?q=${encodeURIComponent(customer.id)}`,
            label: `All ${payments.total.toLocaleString("en-US")} in Payments →`,
          }}
        />
        <FirstPayments rows={payments.items} total={payments.total} pageSize={SHOWN} />
      </section>
      <section aria-labelledby="customer-refunds" className="space-y-3">
        <SectionHeading id="customer-refunds" title="Refunds" />
        <RefundList refunds={refunds.items} caption="Customer's refunds" empty="No refunds." />
      </section>
    </div>
  );
}
