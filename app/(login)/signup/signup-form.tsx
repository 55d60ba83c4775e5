"use client";

import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/text-field";
import { PASSWORD_MIN_LENGTH } from "@/lib/account-schemas";
import { signUp } from "../actions";

export function SignupForm() {
  const [state, formAction, pending] = useActionState(signUp, {});
  return (
    <form action={formAction} className="space-y-4" noValidate>
      {state.message ? <Alert>{state.message}</Alert> : null}
      <TextField label="Business name" name="name" autoComplete="organization" required defaultValue={state.values?.name} errors={state.errors?.name} />
      <TextField label="Email" name="email" type="email" autoComplete="email" required defaultValue={state.values?.email} errors={state.errors?.email} />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        errors={state.errors?.password}
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Creating account…" : "Create account"}
      </Button>
    </form>
  );
}
