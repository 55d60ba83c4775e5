import "server-only";
import type { FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { can, forbiddenMessage, REAUTHENTICATED, type Permission } from "@/lib/accounts/permissions";
import { reauthenticationStanding } from "@/lib/accounts/reauthentication";
import { afterMerchantWrite } from "@/lib/platform/read-your-writes";
import { recordSecurityEvent } from "@/lib/security/history";
import { requireMerchantSession, type MerchantSession } from "./session";

/**
 * The one way a server action starts: the signed-in session, checked against the role table for
 * `permission`, and for the actions that move money or grant access, a password entered again in this session
 * within 10 minutes (sudo mode: lib/accounts/reauthentication.ts). A refusal is the form's message (or the
 * password dialog's cue, `reauthenticate`), and nothing else runs.
 */
export async function authorized<State extends FormState>(
  permission: Permission,
  work: (session: MerchantSession) => Promise<State>,
): Promise<State> {
  // Managing one's own sign-in is what a member without the required second factor must still do.
  const session = await requireMerchantSession({
    allowWithoutSecondFactor: permission === "account:self" || permission === "two_factor:change",
  });
  if (!can(session.role, permission)) return { message: forbiddenMessage(session.role) } as State;
  const sensitive = REAUTHENTICATED[permission];
  if (sensitive) {
    const standing = await reauthenticationStanding(getDb(), session.userId, session.sessionKey);
    if (!standing.recent) {
      // The attempt is recorded: a stolen cookie trying a sensitive action shows in the history.
      await recordSecurityEvent(
        getDb(),
        session.merchantId,
        session.actor,
        "user.reauthentication_required",
        sensitive,
      );
      return {
        message: `Enter your password again to ${sensitive}.`,
        reauthenticate: { secondFactor: standing.secondFactor, purpose: sensitive },
      } as State;
    }
  }
  try {
    return await work(session);
  } finally {
    // Every action may have written (a redirect after a write throws): the merchant's next pages read it.
    await afterMerchantWrite(session.merchantId);
  }
}
