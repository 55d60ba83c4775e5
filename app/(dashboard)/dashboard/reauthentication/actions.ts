"use server";

import { formStateFromError, formText } from "@/app/_lib/form-state";
import { requireMerchantSession } from "@/app/_lib/session";
import type { FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { reauthenticate } from "@/lib/accounts/reauthentication";

/**
 * The password dialog's action (sudo mode): the password, and the second factor's code when the user has one,
 * open the sensitive actions for 10 minutes in this session. Any signed-in member may confirm their own
 * password; what they may then do is still their role's.
 */
export async function confirmPassword(_previous: FormState, formData: FormData): Promise<FormState> {
  const session = await requireMerchantSession({ allowWithoutSecondFactor: true });
  const answer = { password: formText(formData, "password"), code: formText(formData, "code") };
  try {
    await reauthenticate(getDb(), session, answer);
    return { ok: true };
  } catch (error) {
    return formStateFromError(error, {});
  }
}
