import type { Metadata } from "next";

export const metadata: Metadata = { title: "Pay", robots: { index: false, follow: false } };

/** The payer's side: no dashboard frame, no login; one column that fits a phone. */
export default function CheckoutLayout({ children }: { children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen items-start justify-center bg-zinc-50 px-4 py-10 sm:items-center dark:bg-zinc-950">
      <div className="w-full max-w-md">{children}</div>
    </main>
  );
}
