"use client";

import { useActionState } from "react";
import { fieldState } from "@/components/form-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/text-field";
import { logIn } from "../actions";

export function LoginForm({ returnTo }: { returnTo: string }) {
  const [state, formAction, pending] = useActionState(logIn, {});
  const challenge = state.values?.challenge;
  if (challenge)
    return (
      <form action={formAction} className="space-y-4" noValidate>
        {state.message ? <Alert>{state.message}</Alert> : null}
        <input type="hidden" name="next" value={returnTo} />
        <input type="hidden" name="challenge" value={challenge} />
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Enter the 6-digit code from your authenticator app, or one of your recovery codes.
        </p>
        <TextField
          label="Authentication code"
          name="code"
          autoComplete="one-time-code"
          autoFocus
          required
          errors={state.errors?.code}
        />
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? "Verifying…" : "Verify"}
        </Button>
      </form>
    );
  return (
    <form action={formAction} className="space-y-4" noValidate>
      {state.message ? <Alert>{state.message}</Alert> : null}
      <input type="hidden" name="next" value={returnTo} />
      <TextField label="Email" {...fieldState(state, "email")} type="email" autoComplete="email" required />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        errors={state.errors?.password}
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Logging in…" : "Log in"}
      </Button>
    </form>
  );
}
