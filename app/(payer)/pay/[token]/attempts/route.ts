import { getDb } from "@/db/client";
import { payAtCheckout } from "@/lib/checkout/checkouts";
import { clientIp } from "@/lib/platform/client-ip";
import { checkoutResponse, readCheckoutForm } from "../../../checkout-answer";

/** POST /pay/{token}/attempts: the payer pays with a card (the form posts here; the server checks its Origin). */
export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const form = await readCheckoutForm(request);
  const answer = form && (await payAtCheckout(getDb(), token, form, clientIp(request.headers)));
  return checkoutResponse(request, `/pay/${token}`, answer);
}
