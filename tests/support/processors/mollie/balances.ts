// The Balances API, where Mollie reports what it withheld from a payment: each balance transaction carries
// `initialAmount`, `deductions` (the fee, negative) and `resultAmount` (docs.mollie.com/reference/v2/balances-api/
// list-balance-transactions; the resource and `context` shapes follow the current OpenAPI reference). Mollie serves
// these to organization access tokens only; the stand-in also lets an API key read its own account's.
import { apiError, docLink, halLink, timestamp, type ApiResponse } from "./common";
import type { RouteContext } from "./context";
import { formatAmount } from "./money";
import { listPage } from "./pagination";
import type { Account, BalanceTransaction, Store } from "./store";

const PRIMARY_CURRENCY = "EUR";

function currencies(account: Account): string[] {
  const seen = new Set([PRIMARY_CURRENCY]);
  for (const transaction of account.transactions) seen.add(transaction.initial.currency);
  return [...seen];
}

/** `primary`, or one of the account's `bal_…` ids, to the balance's currency. */
function resolve(store: Store, account: Account, id: string): string | undefined {
  if (id === "primary") return PRIMARY_CURRENCY;
  return currencies(account).find((currency) => store.balanceId(account, currency) === id);
}

function balanceJson(ctx: RouteContext, currency: string) {
  const id = ctx.store.balanceId(ctx.account, currency);
  let available = 0;
  for (const transaction of ctx.account.transactions) {
    if (transaction.initial.currency === currency)
      available += transaction.initial.minor + transaction.deductions.minor;
  }
  return {
    resource: "balance",
    id,
    mode: ctx.account.mode,
    createdAt: timestamp(new Date(0)),
    currency,
    description: currency === PRIMARY_CURRENCY ? "Primary balance" : `${currency} balance`,
    status: "active",
    availableAmount: formatAmount({ currency, minor: available }),
    pendingAmount: formatAmount({ currency, minor: 0 }),
    transferFrequency: "daily",
    transferThreshold: formatAmount({ currency, minor: 0 }),
    transferReference: "Mollie payout",
    _links: {
      self: halLink(`${ctx.base}/v2/balances/${id}`),
      documentation: docLink("balances-api/get-balance"),
    },
  };
}

/** The transaction's own object under the key its type names, e.g. `{payment: {paymentId, paymentDescription}}`. */
function context(transaction: BalanceTransaction) {
  const payment = { paymentId: transaction.paymentId, paymentDescription: transaction.paymentDescription };
  if (transaction.type === "payment") return { payment };
  const refund = {
    ...payment,
    refundId: transaction.refundId,
    refundDescription: transaction.refundDescription,
  };
  return transaction.type === "refund" ? { refund } : { returnedRefund: refund };
}

function transactionJson(transaction: BalanceTransaction) {
  const { initial, deductions } = transaction;
  return {
    resource: "balance-transaction",
    id: transaction.id,
    type: transaction.type,
    resultAmount: formatAmount({ currency: initial.currency, minor: initial.minor + deductions.minor }),
    initialAmount: formatAmount(initial),
    deductions: formatAmount(deductions),
    context: context(transaction),
    createdAt: timestamp(transaction.createdAt),
  };
}

export function listBalances(ctx: RouteContext): ApiResponse {
  const balances = currencies(ctx.account).map((currency) => ({
    id: ctx.store.balanceId(ctx.account, currency),
    currency,
  }));
  return listPage({
    items: balances,
    query: ctx.query,
    base: ctx.base,
    path: "/v2/balances",
    name: "balances",
    documentation: "balances-api/list-balances",
    render: (balance) => balanceJson(ctx, balance.currency),
  });
}

export function getBalance(ctx: RouteContext, id: string): ApiResponse {
  const currency = resolve(ctx.store, ctx.account, id);
  if (!currency) return apiError(404, `No balance exists with token ${id}.`);
  return { status: 200, body: balanceJson(ctx, currency) };
}

/** Newest first; `primary` is an alias of the primary balance's id. */
export function listBalanceTransactions(ctx: RouteContext, id: string): ApiResponse {
  const currency = resolve(ctx.store, ctx.account, id);
  if (!currency) return apiError(404, `No balance exists with token ${id}.`);
  const transactions = ctx.account.transactions
    .filter((transaction) => transaction.initial.currency === currency)
    .reverse();
  return listPage({
    items: transactions,
    query: ctx.query,
    base: ctx.base,
    path: `/v2/balances/${id}/transactions`,
    name: "balance_transactions",
    documentation: "balances-api/list-balance-transactions",
    render: transactionJson,
  });
}
