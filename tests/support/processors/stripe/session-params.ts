// Parameter checks for creating a Checkout Session (docs.stripe.com/api/checkout/sessions/create): line items
// with `price_data`, `payment_intent_data`, `expires_at` and the redirect URLs, answered with Stripe's errors.
import { ApiError } from "./errors";
import { int, metadata, obj, onlyKnown, type Params, positiveInt, requiredStr, str } from "./form";
import { type Ctx, newId, now } from "./store";

// prettier-ignore
const intentDataParams = [
  "application_fee_amount", "capture_method", "description", "metadata", "on_behalf_of", "receipt_email",
  "setup_future_usage", "shipping", "statement_descriptor", "statement_descriptor_suffix", "transfer_data",
  "transfer_group",
];

export function url(params: Params, name: string) {
  const value = str(params, name);
  if (value === undefined) return null;
  try {
    if (/^https?:$/.test(new URL(value).protocol)) return value;
  } catch {
    // Falls through to Stripe's error.
  }
  throw ApiError.invalid(name, "Not a valid URL", "url_invalid");
}

export function lineItems(ctx: Ctx, given: Params[]) {
  if (given.length === 0) throw ApiError.missing("line_items");
  return given.map((item, i) => {
    const at = `line_items[${i}]`;
    if (typeof item !== "object" || Array.isArray(item)) throw ApiError.invalid(at, `Invalid object: ${at}`);
    onlyKnown(
      item,
      [
        "adjustable_quantity",
        "dynamic_tax_rates",
        "metadata",
        "price",
        "price_data",
        "quantity",
        "tax_rates",
      ],
      at,
    );
    const price = str(item, "price", `${at}[price]`);
    if (price) throw ApiError.notFound("price", price, `${at}[price]`);
    const data = obj(item, "price_data", `${at}[price_data]`);
    if (!data) throw ApiError.request(`You must specify either \`price\` or \`price_data\` in \`${at}\`.`);
    const p = `${at}[price_data]`;
    onlyKnown(
      data,
      [
        "currency",
        "product",
        "product_data",
        "recurring",
        "tax_behavior",
        "unit_amount",
        "unit_amount_decimal",
      ],
      p,
    );
    const currency = requiredStr(data, "currency", `${p}[currency]`).toLowerCase();
    if (!/^[a-z]{3}$/.test(currency))
      throw ApiError.invalid(`${p}[currency]`, `Invalid currency: ${currency}.`);
    if (data.recurring !== undefined) {
      throw ApiError.invalid(
        `${p}[recurring]`,
        "You must be in `subscription` mode to use recurring prices.",
      );
    }
    const product = obj(data, "product_data", `${p}[product_data]`);
    if (!product) throw ApiError.missing(`${p}[product_data]`);
    const name = requiredStr(product, "name", `${p}[product_data][name]`);
    const unitAmount = int(data, "unit_amount", `${p}[unit_amount]`);
    if (unitAmount === undefined) throw ApiError.missing(`${p}[unit_amount]`);
    if (unitAmount < 0) throw ApiError.invalid(`${p}[unit_amount]`, "Invalid non-negative integer");
    const quantity = positiveInt(item, "quantity", `${at}[quantity]`);
    if (quantity === undefined) throw ApiError.missing(`${at}[quantity]`);
    const total = unitAmount * quantity;
    return {
      id: newId("li"),
      object: "item",
      amount_discount: 0,
      amount_subtotal: total,
      amount_tax: 0,
      amount_total: total,
      currency,
      description: name,
      price: {
        id: newId("price"),
        object: "price",
        active: false,
        billing_scheme: "per_unit",
        created: now(),
        currency,
        livemode: ctx.account.livemode,
        lookup_key: null,
        metadata: {},
        nickname: null,
        product: newId("prod"),
        recurring: null,
        tax_behavior: str(data, "tax_behavior") ?? "unspecified",
        type: "one_time",
        unit_amount: unitAmount,
        unit_amount_decimal: String(unitAmount),
      },
      quantity,
    };
  });
}

export function intentData(params: Params) {
  const data = obj(params, "payment_intent_data") ?? {};
  onlyKnown(data, intentDataParams, "payment_intent_data");
  const capture = str(data, "capture_method", "payment_intent_data[capture_method]");
  if (capture === "manual") {
    throw ApiError.invalid(
      "payment_intent_data[capture_method]",
      "The stand-in supports automatic capture only.",
    );
  }
  return { ...data, metadata: metadata(data) } as Record<string, unknown>;
}

export function expiresAt(params: Params, created: number) {
  const value = int(params, "expires_at");
  if (value === undefined) return created + 24 * 3600;
  if (value < created + 30 * 60) {
    throw ApiError.invalid(
      "expires_at",
      "The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.",
    );
  }
  if (value > created + 24 * 3600) {
    throw ApiError.invalid(
      "expires_at",
      "The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.",
    );
  }
  return value;
}
