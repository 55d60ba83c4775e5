import { getDb } from "@/db/client";
import { finishAuthentication } from "@/lib/checkout/checkouts";
import { clientIp } from "@/lib/platform/client-ip";
import { checkoutResponse, readCheckoutForm } from "../../../checkout-answer";

/** POST /pay/{token}/authentication `result=complete|fail`: the payer ends the authentication step. */
export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const form = await readCheckoutForm(request);
  const result = form?.result;
  if (form && result !== "complete" && result !== "fail")
    return checkoutResponse(request, `/pay/${token}`, {
      kind: "invalid",
      errors: { result: ["The selected result is invalid."] },
    });
  const answer =
    form &&
    (await finishAuthentication(getDb(), token, result as "complete" | "fail", clientIp(request.headers)));
  return checkoutResponse(request, `/pay/${token}`, answer);
}
