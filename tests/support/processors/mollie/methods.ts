// The Methods API (docs.mollie.com/reference/v2/methods-api/list-methods, get-method): a few activated methods, each
// with minimum/maximum amounts and, with `include=pricing`, the stand-in's one flat fee rule.
import { apiError, docLink, halLink, type ApiResponse } from "./common";
import type { RouteContext } from "./context";
import { FEE_FIXED, FEE_VARIABLE_PERCENT } from "./money";

interface MethodInfo {
  id: string;
  description: string;
  minimum: string;
  maximum: string;
  /** The currencies it takes besides EUR (the multicurrency page's table). */
  currencies: string[];
}

const CARD_CURRENCIES =
  "AED AUD BGN CAD CHF CZK DKK GBP HKD HUF ILS ISK JPY NOK NZD PHP PLN RON RUB SEK SGD USD ZAR";
const PAYPAL_CURRENCIES =
  "AUD BRL CAD CHF CZK DKK GBP HKD HUF ILS JPY MXN MYR NOK NZD PHP PLN RUB SEK SGD THB TWD USD";

export const METHODS: readonly MethodInfo[] = [
  { id: "ideal", description: "iDEAL", minimum: "0.01", maximum: "50000.00", currencies: [] },
  {
    id: "creditcard",
    description: "Card",
    minimum: "0.01",
    maximum: "10000.00",
    currencies: CARD_CURRENCIES.split(" "),
  },
  { id: "bancontact", description: "Bancontact", minimum: "0.02", maximum: "50000.00", currencies: [] },
  {
    id: "paypal",
    description: "PayPal",
    minimum: "0.01",
    maximum: "10000.00",
    currencies: PAYPAL_CURRENCIES.split(" "),
  },
  {
    id: "banktransfer",
    description: "Bank transfer",
    minimum: "0.01",
    maximum: "1000000.00",
    currencies: [],
  },
];

/** Every method Mollie's create-payment reference names; the ones not in METHODS are "not activated" here. */
export const KNOWN_METHODS = new Set([
  "applepay",
  "bancontact",
  "banktransfer",
  "belfius",
  "creditcard",
  "directdebit",
  "eps",
  "giftcard",
  "giropay",
  "ideal",
  "kbc",
  "mybank",
  "paypal",
  "paysafecard",
  "przelewy24",
  "sofort",
]);

export function methodInfo(id: string): MethodInfo | undefined {
  return METHODS.find((method) => method.id === id);
}

export function acceptsCurrency(method: MethodInfo, currency: string): boolean {
  return currency === "EUR" || method.currencies.includes(currency);
}

function methodJson(method: MethodInfo, base: string, withPricing: boolean) {
  const icon = `https://www.mollie.com/external/icons/payment-methods/${method.id}`;
  return {
    resource: "method",
    id: method.id,
    description: method.description,
    minimumAmount: { value: method.minimum, currency: "EUR" },
    maximumAmount: { value: method.maximum, currency: "EUR" },
    image: { size1x: `${icon}.png`, size2x: `${icon}%402x.png`, svg: `${icon}.svg` },
    status: "activated",
    ...(withPricing
      ? {
          pricing: [
            {
              description: "Stand-in flat rate",
              fixed: { value: FEE_FIXED, currency: "EUR" },
              variable: FEE_VARIABLE_PERCENT,
            },
          ],
        }
      : {}),
    _links: {
      self: halLink(`${base}/v2/methods/${method.id}`),
      documentation: docLink("methods-api/get-method"),
    },
  };
}

function includesPricing(query: URLSearchParams): boolean {
  return (query.get("include") ?? "").split(",").includes("pricing");
}

export function listMethods(ctx: RouteContext): ApiResponse {
  // `amount[currency]` narrows the list to the methods that take that currency.
  const currency = ctx.query.get("amount[currency]");
  const methods = METHODS.filter((method) => currency === null || acceptsCurrency(method, currency));
  return {
    status: 200,
    body: {
      count: methods.length,
      _embedded: {
        methods: methods.map((method) => methodJson(method, ctx.base, includesPricing(ctx.query))),
      },
      _links: {
        self: halLink(`${ctx.base}/v2/methods`),
        documentation: docLink("methods-api/list-methods"),
      },
    },
  };
}

export function getMethod(ctx: RouteContext, id: string): ApiResponse {
  const method = methodInfo(id);
  if (!method) return apiError(404, `No method exists with id ${id}`);
  return { status: 200, body: methodJson(method, ctx.base, includesPricing(ctx.query)) };
}
