// The stand-in's memory: one account per registered key (each key is its own account, as separate Stripe
// accounts are), each holding its objects by id as the API renders them.
import { randomBytes } from "node:crypto";
import { ApiError } from "./errors";
import { int, str, type Params } from "./form";

export type Obj = Record<string, unknown> & { id: string; object: string };

export interface SavedResponse {
  fingerprint: string;
  requestId: string;
  status: number;
  body: string;
}

export interface Account {
  id: string;
  key: string;
  livemode: boolean;
  created: number;
  /** Set by the first request's Stripe-Version, as Stripe pins an account's default version. */
  apiVersion: string | null;
  objects: Map<string, Obj>;
  /**
   * What a session keeps outside its rendered object: its line items (`line_items` is expandable) and the
   * `payment_intent_data` its PaymentIntent is made with.
   */
  sessionData: Map<string, { lineItems: Obj[]; intentData: Record<string, unknown> }>;
  idempotency: Map<string, SavedResponse>;
}

export interface WebhookCall {
  url: string;
  /** The receiver's HTTP status, or null when it could not be reached. */
  status: number | null;
  type: string;
  eventId: string;
  at: Date;
  error?: string;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  idempotencyKey: string | null;
  at: Date;
  status?: number;
}

export interface State {
  baseUrl: string;
  accounts: Map<string, Account>;
  webhooksMuted: boolean;
  refundsSucceedAtOnce: boolean;
  webhookCalls: WebhookCall[];
  requests: RequestLogEntry[];
  /** Deliveries under way, so tests and close() can wait for them. */
  deliveries: Set<Promise<void>>;
}

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function randomText(length: number) {
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}

/** Ids as Stripe shapes them: `pi_3P…` (24 characters after the prefix); Checkout's carry the mode. */
export function newId(prefix: string, account?: Account) {
  if (prefix === "cs") return `cs_${account?.livemode ? "live" : "test"}_a1${randomText(58)}`;
  if (prefix === "whsec") return `whsec_${randomText(32)}`;
  return `${prefix}_${randomText(24)}`;
}

export function now() {
  return Math.floor(Date.now() / 1000);
}

export function save<T extends Obj>(account: Account, object: T): T {
  account.objects.set(object.id, object);
  return object;
}

export function find(account: Account, kind: string, id: string, param = "id"): Obj {
  const found = account.objects.get(id);
  if (!found || found.object !== kind) throw ApiError.notFound(kind, id, param);
  return found;
}

export function ofKind(account: Account, kind: string): Obj[] {
  return [...account.objects.values()].filter((o) => o.object === kind);
}

export function allOf(state: State, kind: string): Obj[] {
  return [...state.accounts.values()].flatMap((a) =>
    [...a.objects.values()].filter((o) => o.object === kind),
  );
}

/** Finds an object by id in whichever account holds it (for the test controls). */
export function locate(state: State, id: string): { account: Account; object: Obj } | undefined {
  for (const account of state.accounts.values()) {
    const object = account.objects.get(id);
    if (object) return { account, object };
  }
  return undefined;
}

export function clone<T>(value: T): T {
  return structuredClone(value);
}

/** Stripe's list object with cursor paging (`limit` 1–100, `starting_after`, `ending_before`), newest first. */
export function listOf(items: Obj[], query: Params, url: string) {
  const limit = int(query, "limit") ?? 10;
  if (limit < 1 || limit > 100) {
    throw ApiError.invalid("limit", "This value must be between 1 and 100.", "parameter_invalid_integer");
  }
  const sorted = [...items].reverse();
  const after = str(query, "starting_after");
  const before = str(query, "ending_before");
  let start = 0;
  let end = sorted.length;
  if (after) start = sorted.findIndex((o) => o.id === after) + 1;
  if (before)
    end = Math.max(
      0,
      sorted.findIndex((o) => o.id === before),
    );
  let page = sorted.slice(start, end);
  const hasMore = page.length > limit;
  page = before ? page.slice(-limit) : page.slice(0, limit);
  return { object: "list", data: page.map(clone), has_more: hasMore, url };
}

/**
 * `expand[]` paths such as `latest_charge.balance_transaction`: each step replaces an id with the object it
 * names; `data.` steps into a list's items. `virtual` supplies fields that are absent until expanded.
 */
export function expand(
  account: Account,
  value: Record<string, unknown>,
  paths: string[],
  virtual?: (object: Record<string, unknown>, field: string) => unknown,
) {
  const out = clone(value);
  for (const path of paths) {
    const steps = path.split(".");
    if (steps.length > 4) throw ApiError.request(`You cannot expand more than 4 levels of a property.`);
    apply(account, out, steps, path, virtual);
  }
  return out;
}

function apply(
  account: Account,
  node: Record<string, unknown>,
  steps: string[],
  path: string,
  virtual?: (object: Record<string, unknown>, field: string) => unknown,
) {
  const [field, ...rest] = steps as [string, ...string[]];
  if (node.object === "list" && field === "data" && Array.isArray(node.data)) {
    for (const item of node.data as Record<string, unknown>[])
      if (rest.length) apply(account, item, rest, path);
    return;
  }
  let value = node[field];
  if (value === undefined && virtual) value = virtual(node, field);
  if (typeof value === "string") {
    const target = account.objects.get(value);
    if (!target) throw ApiError.request(`This property cannot be expanded (${path}).`);
    value = clone(target);
  } else if (value === undefined || (value !== null && typeof value !== "object")) {
    throw ApiError.request(`This property cannot be expanded (${path}).`);
  }
  node[field] = value;
  if (rest.length && value && typeof value === "object") {
    apply(account, value as Record<string, unknown>, rest, path, virtual);
  }
}

export function expandPaths(params: Params): string[] {
  const raw = params.expand;
  if (raw === undefined) return [];
  const items = Array.isArray(raw) ? raw : [raw];
  return items.map((item, i) => {
    if (typeof item !== "string") throw ApiError.invalid(`expand[${i}]`, `Invalid string: expand[${i}]`);
    return item;
  });
}

/** What an API handler gets: the caller's account, the parsed params (body or query) and the request's ids. */
export interface Ctx {
  state: State;
  account: Account;
  params: Params;
  requestId: string | null;
  idempotencyKey: string | null;
}
