"use server";

import { revalidatePath } from "next/cache";
import { authorized } from "@/app/_lib/authorized";
import { formId, formStateFromError, formText } from "@/app/_lib/form-state";
import type { FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { validationError } from "@/lib/platform/errors";
import { idParam } from "@/lib/platform/validation";
import { updateWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { getInboxCapture } from "@/lib/webhooks/inbox";
import { parsePastedHeaders } from "@/lib/webhooks/pasted-headers";
import { verifyDelivery, type Verification } from "@/lib/webhooks/signature-debugger";

/**
 * The inbox's answer as the form chooses it: "200" answers normally, "timeout" times out, any other status
 * fails on purpose; an empty count means until changed. The domain validates the result.
 */
function readInboxAnswer(formData: FormData) {
  const answer = formText(formData, "answer");
  const countText = formText(formData, "count").trim();
  const count = countText === "" ? undefined : /^\d+$/.test(countText) ? Number(countText) : countText;
  if (answer === "200") return null;
  if (answer === "timeout") return { timeout: true, ...(count === undefined ? {} : { count }) };
  return {
    status: /^\d+$/.test(answer) ? Number(answer) : answer,
    ...(count === undefined ? {} : { count }),
  };
}

export async function setInboxAnswer(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("webhooks:write", async ({ merchantId }) => {
    const values = { answer: formText(formData, "answer"), count: formText(formData, "count") };
    try {
      const id = formId(formData, "endpoint_id");
      const inboxResponse = readInboxAnswer(formData);
      await updateWebhookEndpoint(getDb(), merchantId, id, { inbox_response: inboxResponse });
      revalidatePath(`/dashboard/webhooks/${id}`);
      return { ok: true, message: "Inbox answer saved.", values };
    } catch (error) {
      return formStateFromError(error, values);
    }
  });
}

export type DebuggerState = FormState & { verdict?: Verification };

/** The signature debugger's form: never reveals a secret, so every role may use it. */
export async function debugSignature(_previous: DebuggerState, formData: FormData): Promise<DebuggerState> {
  return authorized("webhooks:read", async ({ merchantId }) => {
    const values = {
      endpoint_id: formText(formData, "endpoint_id"),
      headers: formText(formData, "headers"),
      body: formText(formData, "body"),
    };
    try {
      const endpointId = formId(formData, "endpoint_id");
      const headers = parsePastedHeaders(values.headers);
      if (!headers)
        throw validationError({
          headers: ['Paste the headers as a JSON object, or as "Name: value" lines.'],
        });
      // Opened from a capture: judged as of when it was received (another merchant's capture is none).
      const captureId = idParam.safeParse(formText(formData, "capture_id")).data;
      const capture = captureId ? await getInboxCapture(getDb(), merchantId, captureId) : undefined;
      const verdict = await verifyDelivery(
        getDb(),
        merchantId,
        { endpoint_id: endpointId, headers, body: values.body },
        { receivedAt: capture ? new Date(capture.received_at) : undefined },
      );
      return { ok: true, verdict, values };
    } catch (error) {
      return formStateFromError(error, values);
    }
  });
}
