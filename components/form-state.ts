import type { FieldErrors } from "@/lib/platform/errors";

/** What a server action hands back to its form: field errors, a banner message, and values to refill. */
export type FormState = {
  message?: string;
  errors?: FieldErrors;
  values?: Record<string, string>;
  ok?: boolean;
  /** Set when the action needs the password entered again first (sudo mode): the password dialog opens. */
  reauthenticate?: { secondFactor: boolean; purpose: string };
};

/** The props that tie a field to its form's state: its name, the value to refill, and its errors. */
export function fieldState(state: FormState, name: string) {
  return { name, defaultValue: state.values?.[name], errors: state.errors?.[name] };
}
