// What the stand-in holds. Each registered API key is an account of its own (its own profile, organization and
// balance), so a key never sees another key's payments.
import { newId, randomAlphanumeric } from "./common";
import type { Money } from "./money";

export type Mode = "test" | "live";
export type PaymentStatus = "open" | "pending" | "authorized" | "paid" | "canceled" | "expired" | "failed";
export type RefundStatus = "queued" | "pending" | "processing" | "refunded" | "failed" | "canceled";

export const PAYMENT_STATUSES: readonly PaymentStatus[] = [
  "open",
  "pending",
  "authorized",
  "paid",
  "canceled",
  "expired",
  "failed",
];
export const REFUND_STATUSES: readonly RefundStatus[] = [
  "queued",
  "pending",
  "processing",
  "refunded",
  "failed",
  "canceled",
];
export const FINAL_PAYMENT_STATUSES: ReadonlySet<PaymentStatus> = new Set([
  "paid",
  "canceled",
  "expired",
  "failed",
]);

export interface Account {
  key: string;
  mode: Mode;
  profileId: string;
  organizationId: string;
  /** Balance movements, oldest first (docs: Balances API, List balance transactions). */
  transactions: BalanceTransaction[];
  balanceIds: Map<string, string>;
}

export interface PaymentRecord {
  id: string;
  account: Account;
  createdAt: Date;
  status: PaymentStatus;
  amount: Money;
  description: string;
  redirectUrl: string | null;
  cancelUrl: string | null;
  webhookUrl: string | null;
  /** The chosen method (null until one is known), and the methods the payer may pick from. */
  method: string | null;
  offeredMethods: string[] | null;
  metadata: unknown;
  locale: string | null;
  sequenceType: string;
  expiresAt: Date;
  authorizedAt?: Date;
  paidAt?: Date;
  canceledAt?: Date;
  expiredAt?: Date;
  failedAt?: Date;
  details: Record<string, unknown> | null;
  refundIds: string[];
  expiryTimer?: NodeJS.Timeout;
}

export interface RefundRecord {
  id: string;
  paymentId: string;
  account: Account;
  createdAt: Date;
  status: RefundStatus;
  amount: Money;
  description: string;
  metadata: unknown;
}

export interface BalanceTransaction {
  id: string;
  type: "payment" | "refund" | "returned-refund";
  createdAt: Date;
  initial: Money;
  deductions: Money;
  paymentId: string;
  paymentDescription: string;
  refundId?: string;
  refundDescription?: string;
}

export class Store {
  readonly accounts = new Map<string, Account>();
  readonly payments = new Map<string, PaymentRecord>();
  readonly refunds = new Map<string, RefundRecord>();

  addAccount(key: string, mode: Mode): Account {
    const existing = this.accounts.get(key);
    if (existing) return existing;
    const account: Account = {
      key,
      mode,
      profileId: newId("pfl"),
      organizationId: newId("org"),
      transactions: [],
      balanceIds: new Map(),
    };
    this.accounts.set(key, account);
    return account;
  }

  /** A payment of this account, or undefined: another account's payment is as unknown as a missing one. */
  payment(account: Account, id: string): PaymentRecord | undefined {
    const payment = this.payments.get(id);
    return payment?.account === account ? payment : undefined;
  }

  refund(account: Account, id: string): RefundRecord | undefined {
    const refund = this.refunds.get(id);
    return refund?.account === account ? refund : undefined;
  }

  /** The account's balance in a currency, made when first needed (`bal_…`). */
  balanceId(account: Account, currency: string): string {
    let id = account.balanceIds.get(currency);
    if (!id) {
      id = `bal_${randomAlphanumeric(21)}`;
      account.balanceIds.set(currency, id);
    }
    return id;
  }

  close(): void {
    for (const payment of this.payments.values()) clearTimeout(payment.expiryTimer);
  }
}
