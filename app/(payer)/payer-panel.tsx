import { formatMoney } from "@/components/format";

/** What every payer's page shows around its form: who is paid, how much, for what, and that it is test mode. */
export function PayerPanel({
  merchantName,
  amount,
  currency,
  title,
  description,
  reference,
  children,
}: {
  merchantName: string;
  amount: string;
  currency: string;
  title?: string;
  description?: string | null;
  reference?: string | null;
  children: React.ReactNode;
}) {
  return (
    <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
      <header className="mb-6 space-y-1">
        <p className="text-sm font-medium text-zinc-600 dark:text-zinc-400">{merchantName}</p>
        <h1 className="text-3xl font-semibold tabular-nums tracking-tight">
          {formatMoney(amount, currency)}
        </h1>
        {title ? <p className="text-sm text-zinc-700 dark:text-zinc-300">{title}</p> : null}
        {description ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{description}</p> : null}
        {reference ? (
          <p className="text-xs text-zinc-500 dark:text-zinc-400">
            Reference <span className="font-mono">{reference}</span>
          </p>
        ) : null}
      </header>
      {children}
      <p className="mt-6 text-center text-xs text-zinc-500 dark:text-zinc-400">
        Test mode: pay with a test card such as 4242 4242 4242 4242. No real card is charged.
      </p>
    </div>
  );
}
