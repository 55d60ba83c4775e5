import { z } from "zod";
import { TOKEN_SCOPES, type TokenScope } from "@/db/enums";
import { messages, stringField } from "@/lib/platform/validation";

/** The expiries the dashboard offers; the CLI accepts any whole number of days in range. */
export const TOKEN_EXPIRY_CHOICES = [30, 90, 365] as const;
export const TOKEN_SCOPE_LABELS: Record<TokenScope, string> = { write: "Read and write", read: "Read only" };
/** How long a rolled token keeps working, with the dashboard's wording. */
export const ROLL_GRACE_CHOICES = {
  now: { seconds: 0, label: "Stop it now" },
  "1h": { seconds: 3600, label: "1 hour" },
  "24h": { seconds: 86_400, label: "24 hours" },
  "7d": { seconds: 604_800, label: "7 days" },
} as const;

const optionalDays = z.preprocess(
  (value) => (value === "" || value === "never" || value === null ? undefined : value),
  z.coerce
    .number({ error: messages.integer("expires_in_days") })
    .int(messages.integer("expires_in_days"))
    .min(1, messages.min("expires_in_days", 1))
    .max(3650, messages.max("expires_in_days", 3650))
    .optional(),
);

export const createTokenSchema = z.object({
  name: stringField("name", { max: 100, required: true }),
  scope: z.enum(TOKEN_SCOPES, { error: messages.in("scope") }).default("write"),
  expires_in_days: optionalDays,
});

export const rollTokenSchema = z.object({
  grace: z.enum(Object.keys(ROLL_GRACE_CHOICES) as [keyof typeof ROLL_GRACE_CHOICES], {
    error: messages.in("grace"),
  }),
});
