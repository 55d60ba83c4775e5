"use server";

import { revalidatePath } from "next/cache";
import { authorized } from "@/app/_lib/authorized";
import { formId, formStateFromError } from "@/app/_lib/form-state";
import type { FormState } from "@/components/form-state";
import { getDb } from "@/db/client";
import { dismissRateLimitNotice } from "@/lib/tokens/rate-limited";

/** Dismisses the Overview's 429 notice for the whole team, until the key's next run of 429s. */
export async function dismissRateLimit(_previous: FormState, formData: FormData): Promise<FormState> {
  return authorized("api_keys:write", async ({ merchantId }) => {
    try {
      await dismissRateLimitNotice(getDb(), merchantId, formId(formData, "token_id"));
      revalidatePath("/dashboard");
      return { ok: true, message: "Notice dismissed." };
    } catch (error) {
      return formStateFromError(error);
    }
  });
}
