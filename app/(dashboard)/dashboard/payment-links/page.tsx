import type { Metadata } from "next";
import { z } from "zod";
import { currencyChoices } from "@/app/_lib/currency-choices";
import { requireMerchantSession } from "@/app/_lib/session";
import { formatMoney } from "@/components/format";
import { Link } from "@/components/link";
import { RelativeTime } from "@/components/relative-time";
import { Card, CardList } from "@/components/ui/card-list";
import { LinkedRow } from "@/components/ui/linked-row";
import { numberedPageLinks, Pagination } from "@/components/ui/pagination";
import { SimpleTable } from "@/components/ui/simple-table";
import { getDb } from "@/db/client";
import { can } from "@/lib/accounts/permissions";
import { listPaymentLinks, type PaymentLinkResource } from "@/lib/checkout/payment-links";
import { CreateLinkForm } from "./create-link-form";
import { LinkStatus, LinkToggle, LinkUrl } from "./link-parts";

export const metadata: Metadata = { title: "Payment links" };

const PER_PAGE = 25;
const querySchema = z.object({ page: z.coerce.number().int().min(1).catch(1).default(1) });

/** The link's name, to its page (its payments). */
function LinkName({ link }: { link: PaymentLinkResource }) {
  return (
    <Link
      href={`/dashboard/payment-links/${link.id}`}
      className="font-medium text-indigo-700 [overflow-wrap:anywhere] hover:underline dark:text-indigo-300"
    >
      {link.name}
    </Link>
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
  const [{ items: links, total }, choices] = await Promise.all([
    listPaymentLinks(getDb(), merchantId, page, PER_PAGE),
    currencyChoices(merchantId),
  ]);
  const pageCount = Math.max(1, Math.ceil(total / PER_PAGE));
  const at = (target: number) => `/dashboard/payment-links?page=${target}`;
  const empty = canWrite ? "No payment links yet. Create one above." : "No payment links yet.";
  return (
    <div className="max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Payment links</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          A link to a payment page for a fixed amount: send it to customers, and each one who pays there makes
          a payment of their own (opening it makes none). Payers pay with test cards (4242 4242 4242 4242).
        </p>
      </div>
      {canWrite ? <CreateLinkForm currencies={choices} /> : null}
      <SimpleTable
        className="hidden sm:block"
        caption="Payment links"
        headings={["Name", { label: "Amount", align: "right" }, "Link", "Paid", "Status", "Created", ""]}
        empty={empty}
      >
        {links.map((link) => (
          <LinkedRow key={link.id} href={`/dashboard/payment-links/${link.id}`}>
            <td className="px-4 py-3">
              <LinkName link={link} />
              {link.description ? (
                <p className="text-xs text-zinc-600 dark:text-zinc-400">{link.description}</p>
              ) : null}
            </td>
            <td className="px-4 py-3 text-right tabular-nums whitespace-nowrap">
              {formatMoney(link.amount, link.currency)}
            </td>
            <td className="px-4 py-3">
              <LinkUrl link={link} />
            </td>
            <td className="px-4 py-3 tabular-nums">{link.paid_count.toLocaleString("en-US")}</td>
            <td className="px-4 py-3">
              <LinkStatus link={link} />
            </td>
            <td className="px-4 py-3">
              <RelativeTime value={link.created_at} />
            </td>
            <td className="px-4 py-3">{canWrite ? <LinkToggle link={link} /> : null}</td>
          </LinkedRow>
        ))}
      </SimpleTable>
      <CardList label="Payment links" empty={empty}>
        {links.map((link) => (
          <Card key={link.id}>
            <div className="flex items-start justify-between gap-2">
              <LinkName link={link} />
              <LinkStatus link={link} />
            </div>
            <p className="tabular-nums">{formatMoney(link.amount, link.currency)}</p>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              Paid {link.paid_count.toLocaleString("en-US")} {link.paid_count === 1 ? "time" : "times"} ·
              created <RelativeTime value={link.created_at} />
            </p>
            <LinkUrl link={link} />
            {canWrite ? <LinkToggle link={link} /> : null}
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
