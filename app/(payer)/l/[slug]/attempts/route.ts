import { getDb } from "@/db/client";
import { payByLink } from "@/lib/checkout/link-checkout";
import { clientIp } from "@/lib/platform/client-ip";
import { getEnv } from "@/lib/platform/env";
import { checkoutResponse, readCheckoutForm } from "../../../checkout-answer";

/**
 * POST /l/{slug}/attempts: the payer's first card at a link makes its payment and is tried at its checkout,
 * where the payer goes on (`checkout_path`, or the 303); a refused form makes nothing and stays on the link.
 */
export async function POST(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const form = await readCheckoutForm(request);
  if (!form) return checkoutResponse(request, `/l/${slug}`, null);
  const { answer, checkoutToken } = await payByLink(
    getDb(),
    slug,
    form,
    clientIp(request.headers),
    getEnv().PAYMENTS_AUTO_SETTLE_MS,
  );
  return checkoutResponse(request, `/l/${slug}`, answer, checkoutToken ? `/pay/${checkoutToken}` : undefined);
}
