"use client";

import { useActionState } from "react";
import { fieldState } from "@/components/form-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/text-field";
import { acceptInvite } from "../../actions";

export function AcceptInvitationForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState(acceptInvite, {});
  return (
    <form action={action} className="space-y-4" noValidate>
      {state.message ? <Alert>{state.message}</Alert> : null}
      <input type="hidden" name="token" value={token} />
      <TextField label="Your name" autoComplete="name" {...fieldState(state, "name")} />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        hint="At least 10 characters."
        errors={state.errors?.password}
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Joining…" : "Join the team"}
      </Button>
    </form>
  );
}
