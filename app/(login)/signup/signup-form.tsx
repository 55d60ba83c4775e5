"use client";

import { useActionState } from "react";
import { fieldState } from "@/components/form-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/text-field";
import { PASSWORD_MIN_LENGTH } from "@/lib/accounts/schemas";
import { signUp } from "../actions";

export function SignupForm() {
  const [state, formAction, pending] = useActionState(signUp, {});
  return (
    <form action={formAction} className="space-y-4" noValidate>
      {state.message ? <Alert>{state.message}</Alert> : null}
      <TextField label="Business name" {...fieldState(state, "name")} autoComplete="organization" required />
      <TextField
        label="Your name"
        {...fieldState(state, "owner_name")}
        autoComplete="name"
        hint="Optional. Shown to your team; without it they see your email."
      />
      <TextField label="Email" {...fieldState(state, "email")} type="email" autoComplete="email" required />
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
