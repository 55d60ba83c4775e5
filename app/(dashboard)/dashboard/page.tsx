import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireMerchantSession } from "@/app/session";
import { getDb } from "@/db/client";
import { getMerchantProfile } from "@/lib/merchants";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const session = await requireMerchantSession();
  const merchant = await getMerchantProfile(getDb(), session.merchantId);
  if (!merchant) notFound();
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold">{merchant.name}</h1>
      <dl className="grid gap-4 sm:grid-cols-3">
        {[
          ["Merchant ID", String(merchant.id)],
          ["Payments", merchant.paymentsCount.toLocaleString("en-US")],
          ["Member since", merchant.createdAt.toISOString().slice(0, 10)],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
            <dt className="text-sm text-zinc-500 dark:text-zinc-400">{label}</dt>
            <dd className="mt-1 text-xl font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">Signed in as {session.email}.</p>
    </div>
  );
}
