"use client";

import { useActionState } from "react";
import { fieldState } from "@/components/form-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/ui/select-field";
import { TextArea } from "@/components/ui/text-area";
import { debugSignature, type DebuggerState } from "../inbox-actions";

export function DebuggerForm({
  endpoints,
  initial,
  capture,
}: {
  endpoints: Array<{ value: string; label: string }>;
  initial?: Record<string, string>;
  /** Opened from an inbox capture: judged as it was received. */
  capture?: { id: number; receivedAt: string };
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
      {capture ? (
        <>
          <input type="hidden" name="capture_id" value={capture.id} />
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            From capture {capture.id}, received {capture.receivedAt}: its timestamp is checked against when it
            arrived, not against now.
          </p>
        </>
      ) : null}
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
