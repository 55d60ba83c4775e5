import "server-only";
import type { FormState } from "@/components/form-state";
import { can, forbiddenMessage, type Permission } from "@/lib/accounts/permissions";
import { afterMerchantWrite } from "@/lib/platform/read-your-writes";
import { requireMerchantSession, type MerchantSession } from "./session";

/**
 * The one way a server action starts: the signed-in session, checked against the role table for
 * `permission`. A refusal is the form's message, and nothing else runs.
 */
export async function authorized<State extends FormState>(
  permission: Permission,
  work: (session: MerchantSession) => Promise<State>,
): Promise<State> {
  // Managing one's own sign-in is what a member without the required second factor must still do.
  const session = await requireMerchantSession({ allowWithoutSecondFactor: permission === "account:self" });
  if (!can(session.role, permission)) return { message: forbiddenMessage(session.role) } as State;
  try {
    return await work(session);
  } finally {
    // Every action may have written (a redirect after a write throws): the merchant's next pages read it.
    await afterMerchantWrite(session.merchantId);
  }
}
