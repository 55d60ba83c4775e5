"use server";

import { revalidatePath } from "next/cache";
import { authorized } from "@/app/_lib/authorized";
import { formStateFromError, formText } from "@/app/_lib/form-state";
import { SECURITY_PATH } from "@/app/_lib/session";
import type { FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { changePassword } from "@/lib/accounts/members";
import { endUserSessionById, signOutOtherSessions as endOtherSessions } from "@/lib/accounts/sessions";
import {
  confirmTwoFactorEnrolment,
  disableTwoFactor,
  setTwoFactorRequired,
  startTwoFactorEnrolment,
} from "@/lib/accounts/two-factor";
import { DomainError } from "@/lib/platform/errors";
import { parseId } from "@/lib/platform/validation";
import { revokeApiToken } from "@/lib/tokens/tokens";

export type EnrolmentState = FormState & { qrSvg?: string; secret?: string; recoveryCodes?: string[] };

export async function beginEnrolment(_previous: EnrolmentState): Promise<EnrolmentState> {
  return authorized<EnrolmentState>("two_factor:change", async ({ userId }) => {
    try {
      const { qrSvg, secret } = await startTwoFactorEnrolment(getDb(), userId);
      return { qrSvg, secret };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}

export async function confirmEnrolment(
  _previous: EnrolmentState,
  formData: FormData,
): Promise<EnrolmentState> {
  return authorized("account:self", async ({ userId, sessionKey, actor }) => {
    try {
      // No revalidation here: the page would re-render as "on" before the recovery codes were read.
      return {
        ok: true,
        recoveryCodes: await confirmTwoFactorEnrolment(
          getDb(),
          userId,
          formText(formData, "code"),
          sessionKey,
          actor,
        ),
      };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}

export async function turnOffTwoFactor(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("two_factor:change", async ({ userId, sessionKey, actor }) => {
    try {
      await disableTwoFactor(getDb(), userId, formText(formData, "code"), sessionKey, actor);
      revalidatePath(SECURITY_PATH);
      return { ok: true, message: "Two-factor sign-in is off." };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}

export async function saveTwoFactorRequirement(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("members:manage", async ({ userId, accountId }) => {
    const required = formText(formData, "required") === "true";
    try {
      await setTwoFactorRequired(getDb(), accountId, userId, required);
      revalidatePath(SECURITY_PATH);
      return {
        ok: true,
        message: required
          ? "Every member now signs in with a second factor."
          : "A second factor is now optional.",
      };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}

export async function savePassword(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("account:self", async ({ userId, sessionKey, actor }) => {
    try {
      const input = {
        current_password: formText(formData, "current_password"),
        new_password: formText(formData, "new_password"),
        confirm_password: formText(formData, "confirm_password"),
      };
      await changePassword(getDb(), userId, input, sessionKey, actor);
      revalidatePath(SECURITY_PATH);
      return { ok: true, message: "Your password is changed. Your other sessions are signed out." };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}

/**
 * After a password change: revokes the keys listed then (those made in the last day), each recorded. A stolen
 * session's key outlives the password it was made with; this is the way to end it.
 */
export async function revokeRecentKeys(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("api_keys:write", async ({ merchantId, actor }) => {
    try {
      const ids = formText(formData, "token_ids")
        .split(",")
        .filter(Boolean)
        .map((id) => parseId(id, "token_ids"));
      for (const id of ids) await revokeApiToken(getDb(), merchantId, id, actor).catch(alreadyEnded);
      revalidatePath(SECURITY_PATH);
      return { ok: true, message: `${ids.length} key${ids.length === 1 ? "" : "s"} revoked.` };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}

/** A key revoked meanwhile (or by another owner) is what was wanted: not an error here. */
const alreadyEnded = (error: unknown) => {
  if (!(error instanceof DomainError && error.kind === "conflict")) throw error;
};

export async function signOutOtherSessions(): Promise<FormState> {
  return authorized("account:self", async ({ userId, accountId, email, sessionKey, actor }) => {
    const ended = await endOtherSessions(getDb(), accountId, { id: userId, email }, sessionKey, actor);
    revalidatePath(SECURITY_PATH);
    return { ok: true, message: `Signed out of ${ended} other session${ended === 1 ? "" : "s"}.` };
  });
}

export async function signOutSession(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("account:self", async ({ userId }) => {
    try {
      const ended = await endUserSessionById(
        getDb(),
        userId,
        parseId(formText(formData, "session_id"), "session_id"),
      );
      revalidatePath(SECURITY_PATH);
      return ended
        ? { ok: true, message: "That session is signed out." }
        : { message: "That session has already ended." };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}
