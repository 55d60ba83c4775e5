import type { FormState } from "@/components/form-state";
import { isDatabaseUnavailable, isTransientConflict } from "@/db/errors";
import { DomainError } from "@/lib/platform/errors";
import { parseId } from "@/lib/platform/validation";

/**
 * Turns a DomainError into form state; anything else is a bug and is rethrown (Next shows the error page).
 * A form with fields to refill passes their `values` and shows each error beside its field; a button's form
 * (hidden fields only) shows the field errors as its message.
 */
export function formStateFromError(error: unknown, values?: Record<string, string>): FormState {
  // Nothing was written (rolled back, or the database is away): the form can be sent again as it is.
  if (isDatabaseUnavailable(error) || isTransientConflict(error))
    return {
      message: "The database is busy or restarting: nothing was changed. Try again in a moment.",
      values,
    };
  if (!(error instanceof DomainError)) throw error;
  if (!error.fieldErrors) return { message: error.message, values };
  if (!values) return { message: Object.values(error.fieldErrors).flat().join(" ") };
  return { message: "Please correct the errors below.", errors: error.fieldErrors, values };
}

/** A text field from a submitted form ("" when absent or not text). */
export function formText(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}

/** An id from a submitted form; a missing or crafted value is a field error, never NaN in a query. */
export function formId(formData: FormData, name: string): number {
  return parseId(formText(formData, name), name);
}
