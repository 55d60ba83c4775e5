"use server";

import { revalidatePath } from "next/cache";
import { authorized } from "@/app/_lib/authorized";
import { formId, formStateFromError, formText } from "@/app/_lib/form-state";
import type { FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import {
  createAccountKey,
  createSandbox,
  deleteSandbox,
  renameSandbox,
} from "@/lib/environments/environments";
import { advanceSandboxClock } from "@/lib/test-clock/clock";
import { readEndpointsToCopy, writeCopiedEndpoints } from "@/lib/webhooks/copy-endpoints";

const PAGE = "/dashboard/settings/sandboxes";

/** A key shown once: a new sandbox's `pay_test_` key, or an account key. */
export type RevealedKey = { id: number; name: string; token: string };
export type RevealingFormState = FormState & { revealed?: RevealedKey };

export async function createSandboxAction(
  _previous: RevealingFormState,
  formData: FormData,
): Promise<RevealingFormState> {
  return authorized("sandboxes:manage", async ({ accountId, actor }) => {
    const values = {
      name: formText(formData, "name"),
      clock: formText(formData, "clock"),
      copy_from: formText(formData, "copy_from"),
    };
    try {
      const input = { name: values.name, ...(values.clock ? { clock: values.clock } : {}) };
      const copyFrom = values.copy_from ? formId(formData, "copy_from") : undefined;
      // The sandbox with the chosen environment's settings, and its webhook endpoints, in one transaction.
      const { sandbox, token } = await getDb().transaction(async (tx) => {
        // createSandbox refuses an environment not the account's before anything is read from it.
        const made = await createSandbox(tx, accountId, input, actor, copyFrom);
        const endpoints = copyFrom === undefined ? [] : await readEndpointsToCopy(tx, copyFrom);
        await writeCopiedEndpoints(tx, made.sandbox.id, endpoints, actor);
        return made;
      });
      revalidatePath(PAGE);
      return { ok: true, revealed: { id: sandbox.id, name: sandbox.name, token } };
    } catch (error) {
      return formStateFromError(error, values);
    }
  });
}

export async function renameSandboxAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("sandboxes:manage", async ({ accountId, actor }) => {
    const values = { name: formText(formData, "name") };
    try {
      const name = await renameSandbox(getDb(), accountId, formId(formData, "sandbox_id"), values, actor);
      revalidatePath(PAGE);
      return { ok: true, message: `Renamed to “${name}”.` };
    } catch (error) {
      return formStateFromError(error, values);
    }
  });
}

export async function deleteSandboxAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("sandboxes:manage", async ({ accountId, actor }) => {
    try {
      await deleteSandbox(getDb(), accountId, formId(formData, "sandbox_id"), actor);
      revalidatePath(PAGE);
      return { ok: true, message: "Sandbox deleted, with all its data." };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}

export async function advanceClockAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("sandboxes:manage", async ({ accountId }) => {
    const values = { by: formText(formData, "by") };
    try {
      const clock = await advanceSandboxClock(getDb(), accountId, formId(formData, "sandbox_id"), values);
      revalidatePath(PAGE);
      return { ok: true, message: `The clock now reads ${clock.now.toISOString()}.` };
    } catch (error) {
      return formStateFromError(error, values);
    }
  });
}

export async function createAccountKeyAction(
  _previous: RevealingFormState,
  formData: FormData,
): Promise<RevealingFormState> {
  return authorized("account_keys:create", async ({ accountId, actor }) => {
    const values = { name: formText(formData, "name") };
    try {
      const key = await createAccountKey(getDb(), accountId, values.name, actor);
      revalidatePath(PAGE);
      return { ok: true, revealed: { id: key.id, name: key.name, token: key.token } };
    } catch (error) {
      return formStateFromError(error, values);
    }
  });
}
