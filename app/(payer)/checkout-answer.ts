import type { CheckoutAnswer } from "@/lib/checkout/checkouts";
import { CHECKOUT_MESSAGES, encodeFieldErrors } from "@/lib/checkout/test-cards";
import { VALIDATION_FAILED } from "@/lib/platform/errors";

/** The token is in the URL: no referrer carries it away, and no cache keeps the answer. */
const CHECKOUT_HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
/** More than a card form ever sends. */
const MAX_FORM_BYTES = 16 * 1024;

/** The posted card form (urlencoded, as a browser sends it, or JSON); null when it is too large to read. */
export async function readCheckoutForm(request: Request): Promise<Record<string, unknown> | null> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_FORM_BYTES) return null;
  const text = await request.text();
  if (text.length > MAX_FORM_BYTES) return null;
  if ((request.headers.get("content-type") ?? "").startsWith("application/json")) {
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : {};
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { ...CHECKOUT_HEADERS, ...headers } });

/** Where a form posted without script goes after an attempt at `page`: back to it with what to show, or on. */
function nextLocation(page: string, answer: CheckoutAnswer | null): string {
  if (answer === null) return `${page}?error=invalid`;
  if (answer.kind === "final" && answer.redirectUrl) return answer.redirectUrl;
  if (answer.kind === "invalid")
    return `${page}?${new URLSearchParams({ error: "invalid", fields: encodeFieldErrors(answer.errors) })}`;
  if (answer.kind === "locked" || answer.kind === "limited") return `${page}?error=${answer.kind}`;
  return page;
}

/**
 * An attempt's answer at `page` (`/pay/{token}`, or `/l/{slug}` before a payment was made): JSON for the page's
 * script (`Accept: application/json`), a 303 back to the page (or on to the return_url) for a form posted
 * without script. `movedTo`: the attempt made a payment from a link, whose page (`/pay/{token}`) the payer
 * goes on to; the script is told where (`checkout_path`), as a form without script is by its 303.
 */
export function checkoutResponse(
  request: Request,
  page: string,
  answer: CheckoutAnswer | null,
  movedTo?: string,
): Response {
  const next = nextLocation(movedTo ?? page, answer);
  if (!(request.headers.get("accept") ?? "").includes("application/json"))
    return new Response(null, { status: 303, headers: { ...CHECKOUT_HEADERS, Location: next } });
  const moved = movedTo && !(answer?.kind === "final" && answer.redirectUrl) ? { checkout_path: next } : {};
  if (answer === null) return json(413, { message: "The request body is too large." });
  switch (answer.kind) {
    case "final":
      return json(answer.already ? 409 : 200, {
        ...(answer.already ? { message: `This payment is already ${answer.status}.` } : {}),
        status: answer.status,
        failure_reason: answer.failureReason,
        redirect_url: answer.redirectUrl,
        ...moved,
      });
    case "authentication":
      return json(200, { status: "requires_authentication", ...moved });
    case "invalid":
      return json(422, { message: VALIDATION_FAILED, errors: answer.errors, ...moved });
    case "locked":
      return json(429, { message: CHECKOUT_MESSAGES.locked, ...moved });
    case "limited":
      return json(
        429,
        { message: CHECKOUT_MESSAGES.locked, retry_at: answer.retryAt.toISOString() },
        { "Retry-After": String(Math.max(1, Math.ceil((answer.retryAt.getTime() - Date.now()) / 1000))) },
      );
    case "inactive":
      return json(410, { message: CHECKOUT_MESSAGES.inactiveLink });
    case "not_found":
      return json(404, { message: "Not Found" });
  }
}
