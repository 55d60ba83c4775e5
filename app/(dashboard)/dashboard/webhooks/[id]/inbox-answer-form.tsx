"use client";

import { fieldState } from "@/components/form-state";
import { useToastingActionState } from "@/components/toaster";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { setInboxAnswer } from "../inbox-actions";

const ANSWERS = [
  { value: "200", label: "200 OK (normal)" },
  { value: "500", label: "500 Internal Server Error" },
  { value: "503", label: "503 Service Unavailable" },
  { value: "429", label: "429 Too Many Requests" },
  { value: "400", label: "400 Bad Request" },
  { value: "410", label: "410 Gone (disables the endpoint)" },
  { value: "timeout", label: "Time out" },
];

/** Fail on purpose: what the inbox answers its next deliveries, and for how many. */
export function InboxAnswerForm({
  endpointId,
  current,
}: {
  endpointId: number;
  current: { answer: string; count: string };
}) {
  const [state, formAction, pending] = useToastingActionState(setInboxAnswer, { values: current });
  const errors = state.errors?.inbox_response;
  return (
    <form action={formAction} noValidate className="space-y-3">
      <input type="hidden" name="endpoint_id" value={endpointId} />
      {state.message && !state.ok ? <Alert>{state.message}</Alert> : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label="Answer"
          // A status chosen through the API that the list lacks stays selectable.
          options={
            ANSWERS.some((option) => option.value === current.answer)
              ? ANSWERS
              : [{ value: current.answer, label: current.answer }, ...ANSWERS]
          }
          {...fieldState(state, "answer")}
        />
        <TextField
          label="For the next (deliveries)"
          {...fieldState(state, "count")}
          errors={errors}
          inputMode="numeric"
          autoComplete="off"
          placeholder="Empty: until changed"
        />
      </div>
      <Button type="submit" variant="secondary" disabled={pending}>
        {pending ? "Saving…" : "Save answer"}
      </Button>
    </form>
  );
}
