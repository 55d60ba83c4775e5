// A payer at a checkout page as the tests drive it: the page's own endpoints over real HTTP, as its script
// calls them (JSON answers), from a client address of the test's choosing (the server trusts one proxy hop).
import { randomBytes } from "node:crypto";
import { callApi } from "./api-client";

export type CheckoutAnswer = {
  status: number;
  body: {
    status?: string;
    failure_reason?: string | null;
    redirect_url?: string | null;
    message?: string;
    errors?: Record<string, string[]>;
  };
};

/** A client address no other test uses: the per-address attempt limit counts each apart. */
export function newClientAddress(): string {
  const [a = 0, b = 0, c = 1] = randomBytes(3);
  return `10.${a}.${b}.${c || 1}`;
}

export const CARDS = {
  success: "4242 4242 4242 4242",
  declined: "4000 0000 0000 0002",
  insufficientFunds: "4000 0000 0000 9995",
  expired: "4000 0000 0000 0069",
  authentication: "4000 0027 6000 3184",
  disputed: "4000 0000 0000 0259",
  notReceived: "4000 0000 0000 2685",
  inquiry: "4000 0000 0000 1976",
  /** Luhn-valid, not a test card. */
  real: "4111 1111 1111 1111",
};

export function card(number: string, overrides: Record<string, string> = {}): Record<string, string> {
  return { card_number: number, expiry: "12 / 34", cvc: "123", name: "Ada Lovelace", ...overrides };
}

/** Posts to `/pay/{token}/{path}` as the page's script does. */
export async function postCheckout(
  baseUrl: string,
  checkoutUrl: string,
  path: "attempts" | "authentication",
  form: Record<string, string>,
  options: { ip?: string; origin?: string; headers?: Record<string, string> } = {},
): Promise<CheckoutAnswer> {
  const response = await fetch(`${checkoutUrl}/${path}`, {
    method: "POST",
    headers: {
      Accept: "application/json",
      Origin: options.origin ?? baseUrl,
      "X-Forwarded-For": options.ip ?? newClientAddress(),
      ...options.headers,
    },
    body: new URLSearchParams(form),
  });
  return {
    status: response.status,
    body: (await response.json().catch(() => ({}))) as CheckoutAnswer["body"],
  };
}

/** Creates a payment through the API; returns its id and checkout_url. */
export async function paymentWithCheckout(
  baseUrl: string,
  token: string,
  body: Record<string, unknown> = {},
): Promise<{ id: number; checkoutUrl: string }> {
  const created = await callApi(baseUrl, "/api/payments", {
    token,
    json: { amount: "12.50", return_url: "http://127.0.0.1:9/return?order=7", ...body },
  });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.text}`);
  const id = Number(created.headers.get("location")!.split("/").at(-1));
  const payment = await callApi(baseUrl, `/api/payments/${id}`, { token });
  const checkoutUrl = (payment.body as { data: { checkout_url: string } }).data.checkout_url;
  return { id, checkoutUrl };
}
