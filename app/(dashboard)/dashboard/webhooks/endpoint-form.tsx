"use client";

import { fieldState } from "@/components/form-state";
import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/text-field";
import type { EndpointKind } from "@/db/enums";
import { DEFAULT_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/endpoint-schemas";
import type { EndpointFormState } from "./actions";

type EndpointValues = { url: string; description: string; events: string };

/**
 * Add or edit an endpoint: URL, description and event types. A URL the merchant already has comes back as a
 * warning with "… anyway", never silently as a second subscription. An inbox has no URL field.
 */
export function EndpointForm({
  action,
  title,
  submitLabel,
  initial,
  endpointId,
  kind = "url",
}: {
  action: (previous: EndpointFormState, formData: FormData) => Promise<EndpointFormState>;
  title: string;
  submitLabel: string;
  initial?: EndpointValues;
  endpointId?: number;
  kind?: EndpointKind;
}) {
  const [state, formAction, pending] = useToastingActionState(action, initial ? { values: initial } : {});
  const chosenEvents = state.values?.events?.split(",");
  return (
    <form
      action={formAction}
      noValidate
      className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
    >
      <h2 className="text-base font-semibold">{title}</h2>
      {endpointId ? <input type="hidden" name="endpoint_id" value={endpointId} /> : null}
      <input type="hidden" name="kind" value={kind} />
      {state.message && !state.ok ? (
        <Alert tone={state.duplicateUrl ? "info" : "error"}>{state.message}</Alert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {kind === "url" ? (
          <TextField
            label="Endpoint URL"
            {...fieldState(state, "url")}
            type="url"
            placeholder="e.g. https://example.com/webhooks"
          />
        ) : null}
        <TextField label="Description" {...fieldState(state, "description")} placeholder="Optional" />
      </div>
      <fieldset>
        <legend className="text-sm font-medium">Events to send</legend>
        <div className="mt-2 flex flex-wrap gap-4">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="events"
                value={type}
                // After a refused submit the form is reset to these: the merchant's own choice, not the defaults.
                defaultChecked={(chosenEvents ?? DEFAULT_EVENT_TYPES).includes(type)}
                className="h-4 w-4 rounded border-zinc-300 text-indigo-600"
              />
              {type}
            </label>
          ))}
        </div>
        {state.errors?.events ? (
          <p className="mt-1 text-sm text-red-600 dark:text-red-400">{state.errors.events.join(" ")}</p>
        ) : null}
      </fieldset>
      <div className="flex flex-wrap gap-2">
        {state.duplicateUrl ? (
          <Button
            type="submit"
            name="allow_duplicate_url"
            value="true"
            variant="secondary"
            disabled={pending}
          >
            {submitLabel} anyway
          </Button>
        ) : null}
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </Button>
      </div>
    </form>
  );
}
