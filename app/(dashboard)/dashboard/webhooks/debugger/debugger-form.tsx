"use client";

import { useActionState, useId } from "react";
import { fieldState } from "@/components/form-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/ui/select-field";
import { debugSignature, type DebuggerState } from "../inbox-actions";

const textareaClass =
  "block w-full rounded-md border-0 bg-white px-3 py-2 font-mono text-xs text-zinc-900 shadow-sm ring-1 ring-inset ring-zinc-300 placeholder:text-zinc-500 focus:ring-2 focus:ring-inset focus:ring-indigo-600 aria-[invalid]:ring-red-500 dark:bg-zinc-900 dark:text-zinc-100 dark:ring-zinc-700 dark:placeholder:text-zinc-400";

/** A labelled textarea with its errors tied to it. */
function TextArea({
  label,
  hint,
  errors,
  ...props
}: React.TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  hint: string;
  errors?: string[];
  name: string;
}) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <textarea
        id={id}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={`${id}-note`}
        spellCheck={false}
        className={textareaClass}
        {...props}
      />
      <p
        id={`${id}-note`}
        className={
          errors?.length
            ? "text-sm text-red-600 dark:text-red-400"
            : "text-xs text-zinc-600 dark:text-zinc-400"
        }
      >
        {errors?.length ? errors.join(" ") : hint}
      </p>
    </div>
  );
}

export function DebuggerForm({
  endpoints,
  initial,
}: {
  endpoints: Array<{ value: string; label: string }>;
  initial?: Record<string, string>;
}) {
  const [state, formAction, pending] = useActionState<DebuggerState, FormData>(debugSignature, {
    values: initial,
  });
  const verdict = state.verdict;
  return (
    <form
      action={formAction}
      noValidate
      className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
    >
      {state.message && !state.ok ? <Alert>{state.message}</Alert> : null}
      <SelectField label="Endpoint" options={endpoints} {...fieldState(state, "endpoint_id")} />
      <TextArea
        label="Headers"
        rows={6}
        hint='A JSON object, or "Name: value" lines: webhook-id, webhook-timestamp and webhook-signature.'
        {...fieldState(state, "headers")}
      />
      <TextArea
        label="Body"
        rows={6}
        hint="The raw body as received, before any JSON parsing."
        {...fieldState(state, "body")}
      />
      <Button type="submit" disabled={pending}>
        {pending ? "Checking…" : "Check signature"}
      </Button>
      {verdict ? (
        <div aria-live="polite">
          <Alert tone={verdict.valid ? "success" : "warning"}>
            <p className="font-semibold">
              {verdict.valid ? "Valid signature" : `Does not verify: ${verdict.code}`}
            </p>
            <p className="mt-1 [overflow-wrap:anywhere]">{verdict.reason}</p>
          </Alert>
        </div>
      ) : null}
    </form>
  );
}
