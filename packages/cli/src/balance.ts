import type { Payments } from "@payments-platform/sdk";
import { emit } from "./output.js";

/**
 * `payments balance`: a line per currency, what is available (can be paid out) and what is pending (completed
 * payments not yet available); with --json one object per currency.
 */
export async function showBalance(client: Payments, options: { json?: boolean }): Promise<void> {
  const balance = await client.balance.retrieve();
  const currencies = [...new Set([...balance.available, ...balance.pending].map((entry) => entry.currency))];
  const amountOf = (list: typeof balance.available, currency: string) =>
    list.find((entry) => entry.currency === currency)?.amount ?? "0";
  for (const currency of currencies) {
    const available = amountOf(balance.available, currency);
    const pending = amountOf(balance.pending, currency);
    emit(
      options.json === true,
      { type: "balance", currency, available, pending },
      `${currency}  available ${available}  pending ${pending}`,
    );
  }
  if (currencies.length === 0 && options.json !== true) emit(false, {}, "No balance yet.");
}
