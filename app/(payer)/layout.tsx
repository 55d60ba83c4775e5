import type { Metadata } from "next";
import { connection } from "next/server";

export const metadata: Metadata = {
  title: "Pay",
  description: "A payment page.",
  robots: { index: false, follow: false },
};

/**
 * The payer's side: no dashboard frame, no login; one column that fits a phone. Rendered for each request, so
 * its scripts carry the response's nonce (proxy.ts).
 */
export default async function CheckoutLayout({ children }: { children: React.ReactNode }) {
  await connection();
  return (
    <main className="flex min-h-screen items-start justify-center bg-zinc-50 px-4 py-10 sm:items-center dark:bg-zinc-950">
      <div className="w-full max-w-md">{children}</div>
    </main>
  );
}
