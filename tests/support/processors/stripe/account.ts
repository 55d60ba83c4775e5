// `GET /v1/balance` (docs.stripe.com/api/balance) and `GET /v1/account` (docs.stripe.com/api/accounts/retrieve):
// what a client calls to check that a key works.
import type { Route } from "./server";
import { type Ctx, now, ofKind } from "./store";

/** Card funds are pending until the balance transaction's `available_on`; sums are per currency. */
function balance(ctx: Ctx) {
  const sums = new Map<string, { available: number; pending: number }>();
  for (const txn of ofKind(ctx.account, "balance_transaction")) {
    const sum = sums.get(txn.currency as string) ?? { available: 0, pending: 0 };
    if ((txn.available_on as number) > now()) sum.pending += txn.net as number;
    else sum.available += txn.net as number;
    sums.set(txn.currency as string, sum);
  }
  if (sums.size === 0) sums.set("usd", { available: 0, pending: 0 });
  const rows = [...sums.entries()];
  return {
    object: "balance",
    available: rows.map(([currency, s]) => ({
      amount: s.available,
      currency,
      source_types: { card: s.available },
    })),
    livemode: ctx.account.livemode,
    pending: rows.map(([currency, s]) => ({
      amount: s.pending,
      currency,
      source_types: { card: s.pending },
    })),
  };
}

export const accountRoutes: Route[] = [
  { method: "GET", path: /^\/v1\/balance$/, handler: balance },
  {
    method: "GET",
    path: /^\/v1\/account$/,
    handler: (ctx) => ({
      id: ctx.account.id,
      object: "account",
      business_type: null,
      charges_enabled: true,
      country: "US",
      created: ctx.account.created,
      default_currency: "usd",
      details_submitted: true,
      email: null,
      livemode: ctx.account.livemode,
      payouts_enabled: true,
      type: "standard",
    }),
  },
];
