// The payment page a session's `url` points at, standing in for Checkout in test mode: plain HTML, one form with
// a "Card number" field and a "Pay" button. Stripe's test cards decide the outcome (docs.stripe.com/testing);
// success answers 303 to `success_url` with {CHECKOUT_SESSION_ID} filled in, a decline shows its message and
// leaves the session open for another try.
import type { IncomingMessage, ServerResponse } from "node:http";
import { paySession, sweep } from "./checkout-sessions";
import { ApiError } from "./errors";
import { locate, type Obj, type State } from "./store";

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

function money(amount: number, currency: string) {
  const format = new Intl.NumberFormat("en", { style: "currency", currency: currency.toUpperCase() });
  return format.format(amount / 10 ** format.resolvedOptions().maximumFractionDigits!);
}

/** The Luhn check every real and test card number passes. */
function luhn(digits: string) {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function page(title: string, content: string) {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}
label,input,button{display:block;width:100%;box-sizing:border-box;margin:.4rem 0;font-size:1rem}
input,button{padding:.6rem}[role=alert]{color:#b00020}.test{background:#ffde92;padding:.1rem .4rem}</style>
</head>
<body><main>
<p><span class="test">TEST MODE</span> Stripe stand-in</p>
${content}
</main></body>
</html>
`;
}

function payForm(session: Obj, lineItems: Obj[], error?: string) {
  const items = lineItems
    .map(
      (item) =>
        `<li>${escape(String(item.description))} × ${String(item.quantity)}: ${money(item.amount_total as number, item.currency as string)}</li>`,
    )
    .join("\n");
  const cancel = session.cancel_url
    ? `<p><a href="${escape(session.cancel_url as string)}">Back</a></p>`
    : "";
  return page(
    "Pay – Checkout",
    `<h1>Pay ${money(session.amount_total as number, session.currency as string)}</h1>
<ul>${items}</ul>
<form method="post" action="/c/pay/${escape(session.id)}" aria-label="Payment">
${error ? `<p role="alert">${escape(error)}</p>` : ""}
<label for="cardNumber">Card number</label>
<input id="cardNumber" name="cardNumber" type="text" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required${error ? ' aria-invalid="true"' : ""}>
<button type="submit">Pay</button>
</form>
${cancel}`,
  );
}

export function hostedPage(state: State, req: IncomingMessage, res: ServerResponse, url: URL, body: string) {
  const send = (status: number, html: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      ...headers,
    });
    res.end(html);
  };
  sweep(state);
  const id = decodeURIComponent(url.pathname.slice("/c/pay/".length));
  const found = locate(state, id);
  if (!found || found.object.object !== "checkout.session") {
    return send(
      404,
      page(
        "Not found – Checkout",
        "<h1>Something went wrong</h1><p>The page you were looking for could not be found.</p>",
      ),
    );
  }
  const { account, object: session } = found;
  if (session.status === "expired") {
    return send(410, page("Expired – Checkout", "<h1>This checkout session has expired.</h1>"));
  }
  if (session.status === "complete") {
    const next = session.success_url
      ? `<p><a href="${escape(session.success_url as string)}">Continue</a></p>`
      : "";
    return send(
      200,
      page("Paid – Checkout", `<h1>Thanks for your payment</h1><p>This payment is complete.</p>${next}`),
    );
  }
  const lineItems = account.sessionData.get(session.id)?.lineItems ?? [];
  if (req.method !== "POST") return send(200, payForm(session, lineItems));
  const card = (new URLSearchParams(body).get("cardNumber") ?? "").replace(/[\s-]/g, "");
  if (!card) return send(400, payForm(session, lineItems, "Your card number is incomplete."));
  if (!/^\d{12,19}$/.test(card) || !luhn(card)) {
    return send(400, payForm(session, lineItems, "Your card number is invalid."));
  }
  try {
    const origin = { state, account, requestId: null, idempotencyKey: null };
    const result = paySession(origin, session, card);
    if (!result.paid) return send(402, payForm(session, lineItems, result.message));
    if (result.redirect) return send(303, "", { location: result.redirect });
    return send(200, page("Paid – Checkout", "<h1>Thanks for your payment</h1>"));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return send(409, page("Checkout", `<h1>${escape(error.message)}</h1>`));
  }
}
