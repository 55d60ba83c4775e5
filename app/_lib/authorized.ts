import "server-only";
import type { FormState } from "@/components/form-state";
import { can, forbiddenMessage, type Permission } from "@/lib/accounts/permissions";
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
  return work(session);
}
