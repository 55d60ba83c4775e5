import {
  createPaymentLink,
  getPaymentLink,
  listPaymentLinks,
  paymentLinkOwner,
  setPaymentLinkActive,
} from "@/lib/checkout/payment-links";
import { pageQuerySchema } from "@/lib/payments/schemas";
import { idParam, parseInput } from "@/lib/platform/validation";
import { HttpError } from "./api-errors";
import { apiRoute, type ApiContext } from "./api-route";
import { paginationEnvelope, queryValue } from "./pagination";
import { asApiAnswer, jsonResponse } from "./responses";

/** Payment links (DESIGN.md, "Checkout"): a fixed amount at `{APP_URL}/l/{slug}`, a payment per payer. */
const writeScope = { requiresWrite: true };

/** The link in the path, checked against its owner: 404 for none (or a malformed id), 403 for another's. */
async function ownedLinkId({ db, params, merchantId }: ApiContext<{ id: string }>): Promise<number> {
  const id = idParam.safeParse(params.id);
  const owner = id.success ? await paymentLinkOwner(db, id.data) : undefined;
  if (owner === undefined) throw HttpError.of("notFound");
  if (owner !== merchantId) throw HttpError.of("unauthorized");
  return id.data!;
}

/** GET /api/payment-links: newest first, each with how many of its payments were paid. */
export const listPaymentLinksRoute = apiRoute(async ({ read, merchantId, url }) => {
  const { page, perPage } = parseInput(pageQuerySchema, {
    page: queryValue(url, "page"),
    perPage: queryValue(url, "perPage"),
  });
  const { items, total } = await read((db) => listPaymentLinks(db, merchantId, page, perPage));
  return jsonResponse(200, { data: items, ...paginationEnvelope(url, page, perPage, total, items.length) });
});

/** POST /api/payment-links `{name, amount, description?}`: 201 with the link and its url. */
export const createPaymentLinkRoute = apiRoute(async ({ db, merchantId, body }) => {
  const link = await asApiAnswer(createPaymentLink(db, merchantId, body));
  return jsonResponse(
    201,
    { message: "Payment link created successfully", data: link },
    { Location: `/api/payment-links/${link.id}` },
  );
}, writeScope);

export const showPaymentLinkRoute = apiRoute<{ id: string }>(async (context) => {
  const link = await getPaymentLink(context.db, context.merchantId, await ownedLinkId(context));
  return jsonResponse(200, { data: link });
});

/** PATCH /api/payment-links/{id} `{active}`: an inactive link says so to its payers and creates nothing. */
export const updatePaymentLinkRoute = apiRoute<{ id: string }>(async (context) => {
  const id = await ownedLinkId(context);
  const link = await asApiAnswer(setPaymentLinkActive(context.db, context.merchantId, id, context.body));
  return jsonResponse(200, { data: link });
}, writeScope);
