import { getDb } from "@/db/client";
import { openPaymentLink } from "@/lib/checkout/payment-links";
import { clientIp } from "@/lib/platform/client-ip";
import { getEnv } from "@/lib/platform/env";

const see = (location: string) =>
  new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });

/** GET /l/{slug}: a payment of the link's amount for this payer, and on to its checkout page. */
export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const opened = await openPaymentLink(
    getDb(),
    slug,
    clientIp(request.headers),
    getEnv().PAYMENTS_AUTO_SETTLE_MS,
  );
  if (opened.kind === "created") return see(`/pay/${opened.checkoutToken}`);
  // Encoded: a crafted slug (a NUL, a newline) would make the Location header itself throw, a 500.
  return see(
    `/l/${encodeURIComponent(slug)}/unavailable${opened.kind === "limited" ? "?reason=limited" : ""}`,
  );
}

/** A link checker's HEAD creates nothing (Next.js would otherwise run GET for it). */
export function HEAD() {
  return new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } });
}
