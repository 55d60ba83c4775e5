import { z } from "zod";
import { messages, stringField } from "./validation";

export const TOKEN_SCOPES = ["read", "write"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
/** The expiries the dashboard offers; the CLI accepts any whole number of days in range. */
export const TOKEN_EXPIRY_CHOICES = [30, 90, 365] as const;
/** How long a rolled token keeps working: now, 1 h, 24 h, 7 days. */
export const ROLL_GRACE_CHOICES = { now: 0, "1h": 3600, "24h": 86_400, "7d": 604_800 } as const;

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
  name: stringField("name", { max: 100 }).trim().min(1, messages.required("name")),
  scope: z.enum(TOKEN_SCOPES, { error: messages.in("scope") }).default("write"),
  expires_in_days: optionalDays,
});
export type CreateTokenInput = z.input<typeof createTokenSchema>;

export const rollTokenSchema = z.object({
  grace: z.enum(Object.keys(ROLL_GRACE_CHOICES) as [keyof typeof ROLL_GRACE_CHOICES], { error: messages.in("grace") }),
});
