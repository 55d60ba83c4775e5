import { z } from "zod";
import { TOKEN_SCOPES, type KeyScope, type TokenScope } from "@/db/enums";
import { messages, stringField } from "@/lib/platform/validation";

/** The expiries the dashboard offers; the CLI accepts any whole number of days in range. */
export const TOKEN_EXPIRY_CHOICES = [30, 90, 365] as const;
export const TOKEN_SCOPE_LABELS: Record<KeyScope, string> = {
  write: "Read and write",
  read: "Read only",
  sandboxes: "Sandboxes (account key)",
};
/** The scope that may replace the payout account through the API (DESIGN.md, "API tokens"): owners grant it. */
export const PAYOUT_ACCOUNT_SCOPE = "payout_account";
/** The dashboard's choices, as comma lists; the last only for owners. */
export const TOKEN_SCOPE_CHOICES = [
  { value: "write", label: "Read and write" },
  { value: "read", label: "Read only" },
  { value: `write,${PAYOUT_ACCOUNT_SCOPE}`, label: "Read and write, and the payout account" },
] as const;

/** A key's scopes as the comma list the API, the CLI and the dashboard show: `write,payout_account`. */
export const scopeList = (token: { scope: KeyScope; payoutAccount: boolean }) =>
  token.payoutAccount ? `${token.scope},${PAYOUT_ACCOUNT_SCOPE}` : token.scope;

/** What the dashboard calls a key's scopes. */
export const scopeLabel = (token: { scope: KeyScope; payoutAccount: boolean }) =>
  token.payoutAccount
    ? `${TOKEN_SCOPE_LABELS[token.scope]}, payout account`
    : TOKEN_SCOPE_LABELS[token.scope];

/**
 * `scope`, a comma list: `read` or `write`, and optionally `payout_account`, which needs `write` (it changes
 * where the money goes). Parsed to the stored pair.
 */
const scopeField = z
  .string({ error: messages.string("scope") })
  .default("write")
  .transform((value, context) => {
    const names = new Set(value.split(",").map((name) => name.trim()));
    const payoutAccount = names.delete(PAYOUT_ACCOUNT_SCOPE);
    const [scope, ...rest] = [...names];
    const valid =
      rest.length === 0 &&
      TOKEN_SCOPES.includes(scope as TokenScope) &&
      (!payoutAccount || scope === "write");
    if (!valid) {
      context.addIssue({ code: "custom", message: messages.in("scope") });
      return z.NEVER;
    }
    return { scope: scope as TokenScope, payoutAccount };
  });
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
  scope: scopeField,
  expires_in_days: optionalDays,
});

export const rollTokenSchema = z.object({
  grace: z.enum(Object.keys(ROLL_GRACE_CHOICES) as [keyof typeof ROLL_GRACE_CHOICES], {
    error: messages.in("grace"),
  }),
});
