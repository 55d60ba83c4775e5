"use server";

import { revalidatePath } from "next/cache";
import { authorized } from "@/app/_lib/authorized";
import { formId, formStateFromError, formText } from "@/app/_lib/form-state";
import { type FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import type { UserRole } from "@/db/enums";
import { can } from "@/lib/accounts/permissions";
import {
  createApiToken,
  notifyOwnersOfPayoutAccountKey,
  revokeApiToken,
  rollApiToken,
  type TokenMaker,
} from "@/lib/tokens/tokens";

/** The member making a key: named on it, and granting `payout_account` only as an owner. */
const makerOf = (email: string, role: UserRole): TokenMaker => ({
  createdBy: email,
  mayGrantPayoutAccount: can(role, "payout_account:write"),
});

export type RevealedToken = { id: number; name: string; scope: string; token: string };
export type TokenFormState = FormState & { revealed?: RevealedToken };

export async function generateApiToken(
  _previous: TokenFormState,
  formData: FormData,
): Promise<TokenFormState> {
  return authorized("api_keys:create", async ({ merchantId, actor, role, email }) => {
    const values = {
      name: formText(formData, "name"),
      scope: formText(formData, "scope"),
      expires_in_days: formText(formData, "expires_in_days"),
    };
    try {
      const created = await createApiToken(getDb(), merchantId, values, actor, makerOf(email, role));
      if (created.payoutAccount) await notifyOwnersOfPayoutAccountKey(getDb(), merchantId, created, actor);
      revalidatePath("/dashboard/api-keys");
      return {
        ok: true,
        revealed: { id: created.id, name: created.name, scope: created.scope, token: created.token },
      };
    } catch (error) {
      return formStateFromError(error, values);
    }
  });
}

export async function revokeToken(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("api_keys:write", async ({ merchantId, actor }) => {
    try {
      // The row leaves the active list at once; the dialog it was opened from goes with it, so the
      // confirmation is a toast.
      const { name } = await revokeApiToken(getDb(), merchantId, formId(formData, "token_id"), actor);
      revalidatePath("/dashboard/api-keys");
      return { ok: true, message: `Token “${name}” revoked.` };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}

export async function rollToken(_previous: TokenFormState, formData: FormData): Promise<TokenFormState> {
  return authorized("api_keys:create", async ({ merchantId, actor, role, email }) => {
    try {
      // Refreshed when the dialog closes, so the new token stays on screen until the merchant has copied it.
      const created = await rollApiToken(
        getDb(),
        merchantId,
        formId(formData, "token_id"),
        { grace: formText(formData, "grace") },
        actor,
        makerOf(email, role),
      );
      if (created.payoutAccount) await notifyOwnersOfPayoutAccountKey(getDb(), merchantId, created, actor);
      return {
        ok: true,
        revealed: { id: created.id, name: created.name, scope: created.scope, token: created.token },
      };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}
