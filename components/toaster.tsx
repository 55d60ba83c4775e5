"use client";

import { useActionState, useMemo, useSyncExternalStore } from "react";
import type { FormState } from "./form-state";
import { useAskForPassword, type AskForPassword } from "./reauthentication";

/** How long a toast stays; it can be dismissed sooner. */
const TOAST_MS = 5000;
/** Older toasts give way to newer ones beyond this many. */
const MAX_TOASTS = 3;

type Toast = { id: number; message: string };

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: Toast[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

function dismissToast(id: number) {
  publish(toasts.filter((toast) => toast.id !== id));
}

/** Shows an action's result briefly, away from the form, so old success messages never linger. */
export function showToast(message: string) {
  const id = nextId++;
  publish([...toasts, { id, message }].slice(-MAX_TOASTS));
  setTimeout(() => dismissToast(id), TOAST_MS);
}

/**
 * An action whose success message is toasted as it returns, before React commits its result: a form that
 * leaves the page with its success (a revoked key's row, a resent delivery's button) would never run an
 * effect after that render. When the action asks for the password first (sudo mode) and `ask` is given, the
 * password dialog opens and, once it is confirmed, the same form is sent again.
 */
export function withSuccessToast<State extends FormState>(
  action: (previous: State, formData: FormData) => Promise<State>,
  ask?: AskForPassword | null,
  toast = true,
): (previous: State, formData: FormData) => Promise<State> {
  return async (previous, formData) => {
    let state = await action(previous, formData);
    if (state.reauthenticate && ask && (await ask(state.reauthenticate)))
      state = await action(previous, formData);
    if (toast && state.ok && state.message) showToast(state.message);
    return state;
  };
}

/**
 * useActionState for a dashboard form: the one way forms confirm success (a toast) and the one way they ask
 * for the password again when an action needs it. `toast: false` for a form that shows its success in place.
 */
export function useToastingActionState<State extends FormState>(
  action: (previous: State, formData: FormData) => Promise<State>,
  initial: Awaited<State>,
  { toast = true }: { toast?: boolean } = {},
) {
  const ask = useAskForPassword();
  const toasting = useMemo(() => withSuccessToast(action, ask, toast), [action, ask, toast]);
  return useActionState(toasting, initial);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Where toasts appear: one polite live region at the bottom of every dashboard page. */
export function Toaster() {
  const current = useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
  return (
    <div
      role="status"
      aria-live="polite"
      aria-label="Notifications"
      className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2"
    >
      {current.map((toast) => (
        <div
          key={toast.id}
          className="pointer-events-auto flex items-start gap-3 rounded-lg bg-zinc-900 px-4 py-3 text-sm text-white shadow-lg ring-1 ring-zinc-800 dark:bg-zinc-100 dark:text-zinc-900 dark:ring-zinc-300"
        >
          <p className="flex-1">{toast.message}</p>
          <button
            type="button"
            aria-label="Dismiss"
            onClick={() => dismissToast(toast.id)}
            className="text-zinc-300 hover:text-white dark:text-zinc-600 dark:hover:text-zinc-900"
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
