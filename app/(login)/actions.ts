"use server";

import { CredentialsSignin } from "next-auth";
import { signIn, signOut } from "@/app/_lib/auth";
import { formStateFromError, formText } from "@/app/_lib/form-state";
import { safeReturnPath } from "@/app/_lib/return-path";
import { type FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import { logInSchema, type LogInInput } from "@/lib/accounts/schemas";
import { parseInput } from "@/lib/platform/validation";

async function signInOrExplain(
  email: string,
  password: string,
  values: Record<string, string>,
  redirectTo = "/dashboard",
): Promise<FormState> {
  try {
    // On success this throws Next's redirect, which must propagate.
    await signIn("credentials", { email, password, redirectTo });
    return {};
  } catch (error) {
    if (error instanceof CredentialsSignin) {
      return {
        message:
          error.code === "throttled"
            ? "Too many login attempts. Please wait 15 minutes and try again."
            : "These credentials do not match our records.",
        values,
      };
    }
    throw error;
  }
}

export async function logIn(_previous: FormState, formData: FormData): Promise<FormState> {
  const values = { email: formText(formData, "email") };
  let credentials: LogInInput;
  try {
    credentials = parseInput(logInSchema, { email: values.email, password: formText(formData, "password") });
  } catch (error) {
    return formStateFromError(error, values);
  }
  return signInOrExplain(
    credentials.email,
    credentials.password,
    values,
    safeReturnPath(formText(formData, "next")),
  );
}

export async function signUp(_previous: FormState, formData: FormData): Promise<FormState> {
  const values = { name: formText(formData, "name"), email: formText(formData, "email") };
  const password = formText(formData, "password");
  let email: string;
  try {
    ({ email } = await createMerchantWithOwner(getDb(), { ...values, password }));
  } catch (error) {
    return formStateFromError(error, values);
  }
  return signInOrExplain(email, password, values);
}

export async function logOut(): Promise<void> {
  await signOut({ redirectTo: "/login" });
}
