"use server";

import { revalidatePath } from "next/cache";
import { authorized } from "@/app/_lib/authorized";
import { formStateFromError, formText } from "@/app/_lib/form-state";
import type { FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { connectProcessor } from "@/lib/processors/connections";
import { PROCESSOR_NAMES } from "@/lib/processors/names";

/**
 * Settings → Processor (DESIGN.md, "Processors"): only an owner, with the password (and second factor) entered
 * again in the last 10 minutes (sudo mode, checked by `authorized`): the key takes live money. The key is
 * checked at the processor before anything is saved; it is never sent back to the form, not even refused.
 */
export async function connectProcessorAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("processor:connect", async ({ merchantId, actor }) => {
    const processor = formText(formData, "processor");
    try {
      const connected = await connectProcessor(
        getDb(),
        merchantId,
        { processor, key: formText(formData, "key") },
        actor,
      );
      revalidatePath("/dashboard", "layout");
      return {
        ok: true,
        message: `Connected to ${PROCESSOR_NAMES[connected.processor]} with the ${connected.mode} key ending ${connected.keyLast4}.`,
      };
    } catch (error) {
      return formStateFromError(error, { processor, key: "" });
    }
  });
}
