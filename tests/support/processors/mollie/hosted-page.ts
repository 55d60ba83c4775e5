// The hosted checkout at `_links.checkout.href`, shaped like Mollie's test-mode page: the payer picks the outcome
// with one of the form's buttons; the stand-in sets the status, makes the webhook call, then sends the payer to the
// redirectUrl (cancelUrl, when given, for a cancel) with a 303 See Other, as the get-payment reference advises.
import type { IncomingMessage, ServerResponse } from "node:http";
import { escapeHtml } from "./common";
import { isFinal, type Lifecycle } from "./lifecycle";
import { acceptsCurrency, METHODS } from "./methods";
import { formatAmount } from "./money";
import { checkoutPath } from "./resources";
import type { PaymentRecord, PaymentStatus, Store } from "./store";

/** The outcomes the page offers, in order, with the buttons' labels. */
export const OUTCOMES: readonly { status: PaymentStatus; label: string }[] = [
  { status: "paid", label: "Paid" },
  { status: "failed", label: "Failed" },
  { status: "canceled", label: "Canceled" },
  { status: "expired", label: "Expired" },
  { status: "open", label: "Open" },
];
/** How long the redirect waits for the webhook's first attempt. */
const WEBHOOK_WAIT_MS = 5_000;

function page(res: ServerResponse, status: number, title: string, content: string): void {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
  res.end(
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
      `<meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<style>body{font-family:sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}` +
      `button{margin:.25rem;padding:.5rem 1rem}fieldset{margin-top:1rem}</style></head>` +
      `<body><main>${content}</main></body></html>\n`,
  );
}

function paymentSummary(payment: PaymentRecord): string {
  const { currency, value } = formatAmount(payment.amount);
  return (
    `<p>${escapeHtml(payment.description)}</p>` +
    `<p>Amount: <strong>${escapeHtml(`${currency} ${value}`)}</strong></p>` +
    `<p>Payment <code>${escapeHtml(payment.id)}</code></p>`
  );
}

function finishedPage(res: ServerResponse, payment: PaymentRecord): void {
  const back = payment.redirectUrl
    ? `<p><a href="${escapeHtml(payment.redirectUrl)}">Return to the shop</a></p>`
    : "";
  page(
    res,
    200,
    "Payment finished",
    `<h1>Payment finished</h1><p role="status">This payment is finished: it is ${payment.status}.</p>` +
      paymentSummary(payment) +
      back,
  );
}

/** The methods the payer may choose: those the payment was made with, or every activated one for its currency. */
function methodChoices(payment: PaymentRecord): string[] {
  const activated = METHODS.filter((method) => acceptsCurrency(method, payment.amount.currency));
  return payment.offeredMethods ?? activated.map((method) => method.id);
}

function outcomePage(res: ServerResponse, payment: PaymentRecord): void {
  const choices = methodChoices(payment);
  const methodField =
    payment.method === null
      ? `<p><label for="method">Payment method</label> <select id="method" name="method">` +
        choices.map((id) => `<option value="${escapeHtml(id)}">${escapeHtml(id)}</option>`).join("") +
        `</select></p>`
      : `<p>Payment method: ${escapeHtml(payment.method)}</p>`;
  const buttons = OUTCOMES.map(
    ({ status, label }) => `<button type="submit" name="status" value="${status}">${label}</button>`,
  ).join("");
  page(
    res,
    200,
    `Test mode: ${payment.description}`,
    `<h1>Test mode</h1>${paymentSummary(payment)}` +
      `<form method="post" action="${escapeHtml(checkoutPath(payment.id))}">${methodField}` +
      `<fieldset><legend>Choose the payment's status</legend>${buttons}</fieldset></form>`,
  );
}

function findPayment(store: Store, token: string): PaymentRecord | undefined {
  return store.payments.get(`tr_${token}`);
}

/** Pages and dashboard links outside /v2/; false when the path is not one of them. */
export async function serveHostedPage(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  deps: { store: Store; lifecycle: Lifecycle; readBody: () => Promise<string> },
): Promise<boolean> {
  const dashboard = /^\/dashboard\/[^/]+\/payments\/(tr_[A-Za-z0-9]+)$/.exec(url.pathname);
  if (dashboard?.[1] && req.method === "GET") {
    const payment = deps.store.payments.get(dashboard[1]);
    if (!payment) page(res, 404, "Not found", "<h1>Payment not found</h1>");
    else
      page(
        res,
        200,
        "Dashboard",
        `<h1>Dashboard</h1><p>Status: ${payment.status}</p>${paymentSummary(payment)}`,
      );
    return true;
  }
  const match = /^\/checkout\/select-method\/([A-Za-z0-9]+)$/.exec(url.pathname);
  if (!match?.[1]) return false;
  const payment = findPayment(deps.store, match[1]);
  if (!payment) {
    page(
      res,
      404,
      "Payment not found",
      "<h1>Payment not found</h1><p>There is no payment at this address.</p>",
    );
    return true;
  }
  if (req.method === "GET") {
    if (isFinal(payment.status) || payment.status === "authorized") finishedPage(res, payment);
    else outcomePage(res, payment);
    return true;
  }
  if (req.method !== "POST") {
    res.writeHead(405, { Allow: "GET, POST" }).end();
    return true;
  }
  const form = new URLSearchParams(await deps.readBody());
  const status = OUTCOMES.find((outcome) => outcome.status === form.get("status"))?.status;
  if (!status) {
    page(res, 400, "Choose an outcome", "<h1>Choose an outcome</h1><p>No payment status was chosen.</p>");
    return true;
  }
  if (isFinal(payment.status) || payment.status === "authorized") {
    finishedPage(res, payment);
    return true;
  }
  // "Open" leaves the payment as it is: the payer comes back without having paid.
  if (status !== "open") {
    const method = methodChoices(payment).find((id) => id === form.get("method"));
    await waitAtMost(deps.lifecycle.setPaymentStatus(payment, status, { method }), WEBHOOK_WAIT_MS);
  }
  const target = status === "canceled" ? (payment.cancelUrl ?? payment.redirectUrl) : payment.redirectUrl;
  res.writeHead(303, { Location: target ?? checkoutPath(payment.id) }).end();
  return true;
}

async function waitAtMost(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([promise, timeout]);
  clearTimeout(timer);
}
