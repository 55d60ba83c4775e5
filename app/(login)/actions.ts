"use server";

import { headers } from "next/headers";
import { CredentialsSignin } from "next-auth";
import { LoginRefused, signIn, signOut } from "@/app/_lib/auth";
import { formStateFromError, formText } from "@/app/_lib/form-state";
import { safeReturnPath } from "@/app/_lib/return-path";
import { type FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { signUpMerchant } from "@/lib/accounts/accounts";
import { acceptInvitation } from "@/lib/accounts/invitations";
import { logInSchema, type LogInInput } from "@/lib/accounts/schemas";
import { clientIp, clientUserAgent } from "@/lib/platform/client-ip";
import { parseInput } from "@/lib/platform/validation";

const REFUSALS: Record<string, string> = {
  throttled: "Too many attempts. Please wait 15 minutes and try again.",
  invalid: "These credentials do not match our records.",
  code_invalid: "That code is not valid. Enter the current code from your app, or a recovery code.",
  // Replay protection: each code signs in once, and the app shows the same one for 30 seconds.
  code_used:
    "That code was already used: each code signs in once, so wait for the next code in your app, then enter it.",
};

/** Refusals of the code step that keep it on screen for another code. */
const CODE_STEP_REFUSALS = new Set(["code_invalid", "code_used"]);

/** Signs in with next-auth; a refusal becomes a message, a second-factor challenge the code step. */
async function signInOrExplain(
  credentials: Record<string, string>,
  values: Record<string, string>,
  redirectTo = "/dashboard",
): Promise<FormState> {
  try {
    // On success this throws Next's redirect, which must propagate.
    await signIn("credentials", { ...credentials, redirectTo });
    return {};
  } catch (error) {
    if (error instanceof LoginRefused && error.code === "two_factor")
      return { values: { ...values, challenge: error.challenge ?? "" } };
    if (error instanceof CredentialsSignin) {
      const message = REFUSALS[error.code] ?? REFUSALS.invalid!;
      // A wrong or used code keeps the code step; anything else starts again from the password.
      const challenge = CODE_STEP_REFUSALS.has(error.code) ? credentials.challenge : undefined;
      return { message, values: challenge ? { ...values, challenge } : values };
    }
    throw error;
  }
}

export async function logIn(_previous: FormState, formData: FormData): Promise<FormState> {
  const next = safeReturnPath(formText(formData, "next"));
  const challenge = formText(formData, "challenge");
  if (challenge) {
    const code = formText(formData, "code").trim();
    if (!code) return { errors: { code: ["Enter the code."] }, values: { challenge } };
    return signInOrExplain({ challenge, code }, {}, next);
  }
  const values = { email: formText(formData, "email") };
  let credentials: LogInInput;
  try {
    credentials = parseInput(logInSchema, { email: values.email, password: formText(formData, "password") });
  } catch (error) {
    return formStateFromError(error, values);
  }
  return signInOrExplain(credentials, values, next);
}

export async function signUp(_previous: FormState, formData: FormData): Promise<FormState> {
  const values = {
    name: formText(formData, "name"),
    owner_name: formText(formData, "owner_name"),
    email: formText(formData, "email"),
  };
  const password = formText(formData, "password");
  let email: string;
  try {
    ({ email } = await signUpMerchant(getDb(), { ...values, password }, clientIp(await headers())));
  } catch (error) {
    return formStateFromError(error, values);
  }
  return signInOrExplain({ email, password }, values);
}

/** Accepting an invitation creates the user with the invited role, then signs them in. */
export async function acceptInvite(_previous: FormState, formData: FormData): Promise<FormState> {
  const values = { name: formText(formData, "name") };
  const password = formText(formData, "password");
  let email: string;
  try {
    const requestHeaders = await headers();
    ({ email } = await acceptInvitation(
      getDb(),
      formText(formData, "token"),
      { ...values, password },
      { ip: clientIp(requestHeaders), userAgent: clientUserAgent(requestHeaders) },
    ));
  } catch (error) {
    return formStateFromError(error, values);
  }
  return signInOrExplain({ email, password }, values);
}

export async function logOut(): Promise<void> {
  await signOut({ redirectTo: "/login" });
}
