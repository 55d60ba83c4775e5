"use client";

import { useActionState } from "react";
import { fieldState } from "@/components/form-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/text-field";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/endpoint-schemas";
import { addEndpoint } from "../actions";

export function AddEndpointForm() {
  const [state, formAction, pending] = useActionState(addEndpoint, {});
  return (
    <form
      action={formAction}
      noValidate
      className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
    >
      <h2 className="text-base font-semibold">Add an endpoint</h2>
      {state.message ? <Alert>{state.message}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Endpoint URL"
          {...fieldState(state, "url")}
          type="url"
          placeholder="e.g. https://example.com/webhooks"
        />
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
                // After a refused submit the form is reset to these: the merchant's own choice, not all three.
                defaultChecked={state.values ? state.values.events?.split(",").includes(type) : true}
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
      <Button type="submit" disabled={pending}>
        {pending ? "Adding…" : "Add endpoint"}
      </Button>
    </form>
  );
}
