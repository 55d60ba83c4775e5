"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { authorized } from "@/app/_lib/authorized";
import { formId, formStateFromError, formText } from "@/app/_lib/form-state";
import { type FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { DomainError } from "@/lib/platform/errors";
import { recoverFailedDeliveries, resendDelivery, retryDeliveryNow } from "@/lib/webhooks/delivery-log";
import { sendTestEvent } from "@/lib/webhooks/endpoint-events";
import { revealWebhookSecret, rotateWebhookSecret } from "@/lib/webhooks/endpoint-secrets";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  setWebhookEndpointEnabled,
  updateWebhookEndpoint,
} from "@/lib/webhooks/endpoints";

export type SecretState = FormState & { secret?: string };

const endpointId = (formData: FormData) => formId(formData, "endpoint_id");

/** The endpoint form's state: a duplicate URL comes back as a warning the merchant can confirm. */
export type EndpointFormState = FormState & { duplicateUrl?: boolean };

/** Reads the add/edit form; the event choices are refilled too, so a fixed URL keeps the merchant's choice. */
function readEndpointForm(formData: FormData) {
  const events = formData.getAll("events").filter((event) => typeof event === "string");
  const values = { url: formText(formData, "url"), description: formText(formData, "description") };
  // An inbox's form has no URL field (an edit ignores the kind: it cannot change).
  const inbox = formText(formData, "kind") === "inbox";
  return {
    input: inbox ? { kind: "inbox", description: values.description, events } : { ...values, events },
    refill: { ...values, events: events.join(",") },
    options: { allowDuplicateUrl: formText(formData, "allow_duplicate_url") === "true" },
  };
}

function endpointFormError(error: unknown, refill: Record<string, string>): EndpointFormState {
  const state = formStateFromError(error, refill);
  return error instanceof DomainError && error.kind === "conflict"
    ? { ...state, message: error.message, duplicateUrl: true }
    : state;
}

export async function addEndpoint(
  _previous: EndpointFormState,
  formData: FormData,
): Promise<EndpointFormState> {
  return authorized("webhooks:write", async ({ merchantId, actor }) => {
    const { input, refill, options } = readEndpointForm(formData);
    let id: number;
    try {
      ({ id } = await createWebhookEndpoint(getDb(), merchantId, input, options, actor));
    } catch (error) {
      return endpointFormError(error, refill);
    }
    redirect(`/dashboard/webhooks/${id}`);
  });
}

/** "Add inbox": an inbox on the default events, opened on its page (where it can be renamed or narrowed). */
export async function addInbox(_previous: FormState, _formData: FormData): Promise<FormState> {
  return authorized("webhooks:write", async ({ merchantId, actor }) => {
    let id: number;
    try {
      ({ id } = await createWebhookEndpoint(getDb(), merchantId, { kind: "inbox" }, {}, actor));
    } catch (error) {
      return formStateFromError(error);
    }
    redirect(`/dashboard/webhooks/${id}`);
  });
}

export async function editEndpoint(
  _previous: EndpointFormState,
  formData: FormData,
): Promise<EndpointFormState> {
  return authorized("webhooks:write", async ({ merchantId }) => {
    const { input, refill, options } = readEndpointForm(formData);
    try {
      const id = endpointId(formData);
      await updateWebhookEndpoint(getDb(), merchantId, id, input, options);
      revalidatePath(`/dashboard/webhooks/${id}`);
      return { ok: true, message: "Endpoint saved.", values: refill };
    } catch (error) {
      return endpointFormError(error, refill);
    }
  });
}

/** One action per button: each checks the role and scopes every query by the merchant. */
async function endpointAction(
  formData: FormData,
  run: (merchantId: number) => Promise<string | void>,
): Promise<FormState> {
  return authorized("webhooks:write", async ({ merchantId }) => {
    try {
      const message = await run(merchantId);
      revalidatePath(`/dashboard/webhooks/${endpointId(formData)}`);
      return { ok: true, message: message ?? undefined };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}

export async function toggleEndpoint(_previous: FormState, formData: FormData): Promise<FormState> {
  const enable = formText(formData, "enable") === "true";
  return endpointAction(formData, async (merchantId) => {
    await setWebhookEndpointEnabled(getDb(), merchantId, endpointId(formData), enable);
    return enable ? "Endpoint enabled." : "Endpoint disabled.";
  });
}

export async function removeEndpoint(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("webhooks:write", async ({ merchantId, actor }) => {
    try {
      await deleteWebhookEndpoint(getDb(), merchantId, endpointId(formData), actor);
    } catch (error) {
      return formStateFromError(error);
    }
    redirect("/dashboard/webhooks");
  });
}

export async function revealSecret(_previous: SecretState, formData: FormData): Promise<SecretState> {
  return authorized("webhooks:secret", async ({ merchantId, actor }) => {
    try {
      const secret = await revealWebhookSecret(getDb(), merchantId, endpointId(formData), actor);
      return { ok: true, secret };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}

export async function rotateSecret(_previous: SecretState, formData: FormData): Promise<SecretState> {
  return authorized("webhooks:secret", async ({ merchantId, actor }) => {
    try {
      const secret = await rotateWebhookSecret(getDb(), merchantId, endpointId(formData), actor);
      return {
        ok: true,
        secret,
        message: "Secret rotated. The previous secret keeps signing alongside it for 24 hours.",
      };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}

export async function sendTest(_previous: FormState, formData: FormData): Promise<FormState> {
  return endpointAction(formData, async (merchantId) => {
    const eventId = await sendTestEvent(getDb(), merchantId, endpointId(formData), {
      event: formText(formData, "event"),
    });
    return `Test event ${eventId} queued.`;
  });
}

export async function resend(_previous: FormState, formData: FormData): Promise<FormState> {
  return endpointAction(formData, async (merchantId) => {
    await resendDelivery(getDb(), merchantId, formId(formData, "delivery_id"));
    // Resent from an event's page too: that page shows the delivery queued.
    revalidatePath("/dashboard/events/[id]", "page");
    return "Delivery queued again.";
  });
}

export async function retryNow(_previous: FormState, formData: FormData): Promise<FormState> {
  return endpointAction(formData, async (merchantId) => {
    await retryDeliveryNow(getDb(), merchantId, formId(formData, "delivery_id"));
    return "Retrying now.";
  });
}

export async function recoverFailed(_previous: FormState, formData: FormData): Promise<FormState> {
  return endpointAction(formData, async (merchantId) => {
    const count = await recoverFailedDeliveries(getDb(), merchantId, endpointId(formData), {
      since: formText(formData, "since"),
    });
    return `${count} failed ${count === 1 ? "delivery" : "deliveries"} queued again.`;
  });
}
