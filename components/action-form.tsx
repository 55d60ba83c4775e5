"use client";

import type { FormState } from "./form-state";
import { useToastingActionState } from "./toaster";
import { Alert } from "./ui/alert";
import { Button, type ButtonVariant } from "./ui/button";

/**
 * A form around one server action: hidden fields, optional inputs, a submit button, and the action's
 * message (success or error) announced beside it.
 */
export function ActionForm({
  action,
  fields,
  submitLabel,
  variant = "secondary",
  children,
  className = "",
}: {
  action: (previous: FormState, formData: FormData) => Promise<FormState>;
  fields: Record<string, string | number>;
  submitLabel: string;
  variant?: ButtonVariant;
  children?: React.ReactNode;
  className?: string;
}) {
  const [state, formAction, pending] = useToastingActionState(action, {});
  return (
    <form action={formAction} className={`space-y-2 ${className}`}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="flex flex-wrap items-end gap-2">
        {children}
        <Button type="submit" variant={variant} disabled={pending}>
          {submitLabel}
        </Button>
      </div>
      {state.message && !state.ok ? <Alert>{state.message}</Alert> : null}
    </form>
  );
}
