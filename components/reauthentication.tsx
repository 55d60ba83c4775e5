"use client";

import { createContext, useCallback, useContext, useRef, useState } from "react";
import type { FormState } from "./form-state";
import { Button } from "./ui/button";
import { Dialog } from "./ui/dialog";
import { TextField } from "./ui/text-field";

// Sudo mode's one dialog: an action that moves money or grants access answers `reauthenticate` when the
// session has not re-entered its password in the last 10 minutes; the form's action (useToastingActionState)
// then asks here and, once confirmed, sends the same form again. The check itself is the server's
// (app/_lib/authorized.ts); this only asks.

type Asking = NonNullable<FormState["reauthenticate"]>;
type Confirm = (previous: FormState, formData: FormData) => Promise<FormState>;
/** Asks for the password; resolves true once it is confirmed, false when the dialog is closed. */
export type AskForPassword = (asking: Asking) => Promise<boolean>;

const AskContext = createContext<AskForPassword | null>(null);

/** The ask function of the dashboard around this form, or null outside it (sign-in pages ask nothing). */
export function useAskForPassword(): AskForPassword | null {
  return useContext(AskContext);
}

export function ReauthenticationProvider({
  confirm,
  children,
}: {
  confirm: Confirm;
  children: React.ReactNode;
}) {
  const [open, setOpen] = useState<{ asking: Asking; key: number } | null>(null);
  const settle = useRef<((confirmed: boolean) => void) | null>(null);
  const ask = useCallback<AskForPassword>(
    (asking) =>
      new Promise((resolve) => {
        settle.current?.(false);
        settle.current = resolve;
        setOpen({ asking, key: Date.now() });
      }),
    [],
  );
  const finish = (confirmed: boolean) => {
    settle.current?.(confirmed);
    settle.current = null;
    setOpen(null);
  };
  return (
    <AskContext.Provider value={ask}>
      {children}
      {open ? (
        <PasswordDialog key={open.key} asking={open.asking} confirm={confirm} onFinish={finish} />
      ) : null}
    </AskContext.Provider>
  );
}

/**
 * "Confirm it is you": the password, and the authenticator's code when the user has a second factor. Sent with
 * a plain submit handler, not a form action: the form that asked is still in its own transition, and React
 * would hold this dialog's errors until that one ended.
 */
function PasswordDialog({
  asking,
  confirm,
  onFinish,
}: {
  asking: Asking;
  confirm: Confirm;
  onFinish: (confirmed: boolean) => void;
}) {
  const [state, setState] = useState<FormState>({});
  const [pending, setPending] = useState(false);
  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setPending(true);
    const answer = await confirm({}, new FormData(event.currentTarget)).finally(() => setPending(false));
    if (answer.ok) onFinish(true);
    else setState(answer);
  };
  return (
    <Dialog open onClose={() => onFinish(false)} title="Confirm it is you">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Enter your password{asking.secondFactor ? " and the code from your authenticator app" : ""} to{" "}
          {asking.purpose}. It is not asked again for 10 minutes in this session.
        </p>
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          errors={state.errors?.password}
          autoFocus
        />
        {asking.secondFactor ? (
          <TextField
            label="Authentication code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            hint="6 digits from your app, or a recovery code"
            errors={state.errors?.code}
          />
        ) : null}
        {state.message && !state.errors ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {state.message}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onFinish(false)}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={pending}>
            {pending ? "Confirming…" : "Confirm"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
