import type { Metadata } from "next";
import { z } from "zod";
import { getDisplayCurrency } from "@/app/_lib/display-currency";
import { requireMerchantSession } from "@/app/_lib/session";
import { ActionForm } from "@/components/action-form";
import { formatMoney } from "@/components/format";
import { RelativeTime } from "@/components/relative-time";
import { Card, CardList } from "@/components/ui/card-list";
import { CopyButton } from "@/components/ui/copy-button";
import { numberedPageLinks, Pagination } from "@/components/ui/pagination";
import { SimpleTable } from "@/components/ui/simple-table";
import { StatusBadge } from "@/components/ui/status-badge";
import { getDb } from "@/db/client";
import { can } from "@/lib/accounts/permissions";
import { listPaymentLinks, type PaymentLinkResource } from "@/lib/checkout/payment-links";
import { setLinkActive } from "./actions";
import { CreateLinkForm } from "./create-link-form";

export const metadata: Metadata = { title: "Payment links" };

const PER_PAGE = 25;
const querySchema = z.object({ page: z.coerce.number().int().min(1).catch(1).default(1) });

function Toggle({ link }: { link: PaymentLinkResource }) {
  return (
    <ActionForm
      action={setLinkActive}
      fields={{ link_id: link.id, active: String(!link.active) }}
      submitLabel={link.active ? "Deactivate" : "Activate"}
    />
  );
}

function Status({ link }: { link: PaymentLinkResource }) {
  return (
    <StatusBadge tone={link.active ? "green" : "gray"}>{link.active ? "active" : "inactive"}</StatusBadge>
  );
}

/** Links merchants share: a fixed amount, a page of its own, and a new payment for each payer. */
export default async function PaymentLinksPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchantId, role } = await requireMerchantSession();
  const canWrite = can(role, "payments:write");
  const { page } = querySchema.parse(await searchParams);
  const [{ items: links, total }, currency] = await Promise.all([
    listPaymentLinks(getDb(), merchantId, page, PER_PAGE),
    getDisplayCurrency(merchantId),
  ]);
  const pageCount = Math.max(1, Math.ceil(total / PER_PAGE));
  const at = (target: number) => `/dashboard/payment-links?page=${target}`;
  const empty = canWrite ? "No payment links yet. Create one above." : "No payment links yet.";
  return (
    <div className="max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Payment links</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          A link to a payment page for a fixed amount: send it to customers, and each one who opens it pays a
          payment of their own. Payers pay with test cards (4242 4242 4242 4242).
        </p>
      </div>
      {canWrite ? <CreateLinkForm /> : null}
      <SimpleTable
        className="hidden sm:block"
        caption="Payment links"
        headings={["Name", { label: "Amount", align: "right" }, "Link", "Paid", "Status", "Created", ""]}
        empty={empty}
      >
        {links.map((link) => (
          <tr key={link.id}>
            <td className="px-4 py-3">
              <p className="font-medium [overflow-wrap:anywhere]">{link.name}</p>
              {link.description ? (
                <p className="text-xs text-zinc-600 dark:text-zinc-400">{link.description}</p>
              ) : null}
            </td>
            <td className="px-4 py-3 text-right tabular-nums whitespace-nowrap">
              {formatMoney(link.amount, currency)}
            </td>
            <td className="px-4 py-3">
              <CopyButton
                value={link.url}
                label={
                  <>
                    Copy<span className="sr-only"> link to {link.name}</span>
                  </>
                }
              />
            </td>
            <td className="px-4 py-3 tabular-nums">{link.paid_count.toLocaleString("en-US")}</td>
            <td className="px-4 py-3">
              <Status link={link} />
            </td>
            <td className="px-4 py-3">
              <RelativeTime value={link.created_at} />
            </td>
            <td className="px-4 py-3">{canWrite ? <Toggle link={link} /> : null}</td>
          </tr>
        ))}
      </SimpleTable>
      <CardList label="Payment links" empty={empty}>
        {links.map((link) => (
          <Card key={link.id}>
            <div className="flex items-start justify-between gap-2">
              <p className="font-medium [overflow-wrap:anywhere]">{link.name}</p>
              <Status link={link} />
            </div>
            <p className="tabular-nums">{formatMoney(link.amount, currency)}</p>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              Paid {link.paid_count.toLocaleString("en-US")} times · created{" "}
              <RelativeTime value={link.created_at} />
            </p>
            <div className="flex flex-wrap gap-2">
              <CopyButton
                value={link.url}
                label={
                  <>
                    Copy<span className="sr-only"> link to {link.name}</span>
                  </>
                }
              />
              {canWrite ? <Toggle link={link} /> : null}
            </div>
          </Card>
        ))}
      </CardList>
      {total > PER_PAGE ? (
        <Pagination
          label="Payment links pages"
          page={page}
          pageCount={pageCount}
          links={numberedPageLinks(page, pageCount, at)}
        />
      ) : null}
    </div>
  );
}
