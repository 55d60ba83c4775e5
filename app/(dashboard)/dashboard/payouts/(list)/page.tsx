import type { Metadata } from "next";
import { z } from "zod";
import { requireMerchantSession } from "@/app/_lib/session";
import { formatMoney } from "@/components/format";
import { Link } from "@/components/link";
import { LocalTime, RelativeTime } from "@/components/relative-time";
import { PayoutStatusBadge } from "@/components/status-badges";
import { Card, CardList } from "@/components/ui/card-list";
import { LinkedRow } from "@/components/ui/linked-row";
import { numberedPageLinks, Pagination } from "@/components/ui/pagination";
import { SimpleTable } from "@/components/ui/simple-table";
import { readFor } from "@/db/replicas";
import { can } from "@/lib/accounts/permissions";
import { getBalance } from "@/lib/ledger/balance";
import { listPayouts, payoutOutlook } from "@/lib/payouts/queries";
import { payoutArrives, type Payout } from "@/lib/payouts/schemas";
import { PayoutForm } from "./payout-form";
import { PayoutAccountWarning } from "../../balance/payout-account-warning";

export const metadata: Metadata = { title: "Payouts" };

const PER_PAGE = 25;
const querySchema = z.object({ page: z.coerce.number().int().min(1).catch(1).default(1) });
const linkClass = "text-indigo-700 hover:underline dark:text-indigo-300";
/** A link inside a sentence: underlined, so it does not rely on its colour alone. */
const inTextLink = "text-indigo-700 underline dark:text-indigo-300";

function PayoutLink({ payout }: { payout: Payout }) {
  return (
    <Link href={`/dashboard/payouts/${payout.id}`} className={`font-mono ${linkClass}`}>
      {payout.id}
    </Link>
  );
}

/** Every payout, newest first; an owner pays out by hand here too (the schedule is in Settings → Payouts). */
export default async function PayoutsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchantId, role } = await requireMerchantSession();
  const { page } = querySchema.parse(await searchParams);
  const [{ items, total }, balance, outlook] = await readFor(merchantId, (db) =>
    Promise.all([
      listPayouts(db, merchantId, page, PER_PAGE),
      getBalance(db, merchantId),
      payoutOutlook(db, merchantId),
    ]),
  );
  // Decimal strings, compared as text: a positive amount is neither negative nor all zeros.
  const payable = balance.available.filter(
    (entry) => !entry.amount.startsWith("-") && !/^0(\.0*)?$/.test(entry.amount),
  );
  const pageCount = Math.max(1, Math.ceil(total / PER_PAGE));
  const empty = "No payouts yet.";
  return (
    <div className="max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Payouts</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Money sent from your available balance to your bank account, newest first. Schedule:{" "}
          <strong className="font-medium">{outlook.schedule}</strong> ·{" "}
          <Link href="/dashboard/settings/payouts" className={inTextLink}>
            Settings → Payouts
          </Link>
        </p>
      </div>
      {can(role, "payouts:write") ? (
        <section
          aria-labelledby="pay-out-heading"
          className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
        >
          <h2 id="pay-out-heading" className="text-base font-semibold">
            Pay out now
          </h2>
          {!outlook.hasAccount ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              Add a bank account in{" "}
              <Link href="/dashboard/settings/payouts" className={inTextLink}>
                Settings → Payouts
              </Link>{" "}
              first.
            </p>
          ) : outlook.account?.errored ? (
            <PayoutAccountWarning account={outlook.account} />
          ) : outlook.account?.heldUntil ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="payout-hold">
              Payouts to the new account start at <LocalTime value={outlook.account.heldUntil} />: the bank
              account was changed lately, and payouts wait a while after a change so that an owner can stop
              one they did not make.
            </p>
          ) : payable.length === 0 ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              Nothing is available to pay out yet: completed payments become available{" "}
              <Link href="/dashboard/balance" className={inTextLink}>
                after a while
              </Link>
              .
            </p>
          ) : (
            <>
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                Available: {payable.map((entry) => formatMoney(entry.amount, entry.currency)).join(" · ")}
              </p>
              <PayoutForm available={payable} destinationLast4={outlook.account?.last4 ?? ""} />
            </>
          )}
        </section>
      ) : null}
      <SimpleTable
        className="hidden sm:block"
        caption="Payouts"
        headings={["Payout", { label: "Amount", align: "right" }, "Status", "To", "Arrival", "Created"]}
        empty={empty}
      >
        {items.map((payout) => (
          <LinkedRow key={payout.id} href={`/dashboard/payouts/${payout.id}`}>
            <td className="px-4 py-3">
              <PayoutLink payout={payout} />
            </td>
            <td className="px-4 py-3 text-right tabular-nums">
              {formatMoney(payout.amount, payout.currency)}
            </td>
            <td className="px-4 py-3">
              <PayoutStatusBadge status={payout.status} />
              {payout.failure_reason ? (
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                  {payout.failure_reason}
                </span>
              ) : null}
            </td>
            <td className="px-4 py-3 font-mono">•••• {payout.destination_last4}</td>
            <td className="px-4 py-3">{payoutArrives(payout) ? payout.arrival_date : "—"}</td>
            <td className="whitespace-nowrap px-4 py-3">
              <RelativeTime value={payout.created_at} />
            </td>
          </LinkedRow>
        ))}
      </SimpleTable>
      <CardList label="Payouts" empty={empty}>
        {items.map((payout) => (
          <Card key={payout.id}>
            <p className="flex justify-between gap-2">
              <PayoutLink payout={payout} />
              <span className="tabular-nums">{formatMoney(payout.amount, payout.currency)}</span>
            </p>
            <p className="flex items-center justify-between gap-2 text-xs text-zinc-600 dark:text-zinc-400">
              <span>
                To •••• {payout.destination_last4}
                {payoutArrives(payout) ? ` · arrival ${payout.arrival_date}` : ""}
              </span>
              <PayoutStatusBadge status={payout.status} />
            </p>
          </Card>
        ))}
      </CardList>
      {total > PER_PAGE ? (
        <Pagination
          label="Payout pages"
          page={page}
          pageCount={pageCount}
          links={numberedPageLinks(page, pageCount, (target) => `/dashboard/payouts?page=${target}`)}
        />
      ) : null}
    </div>
  );
}
