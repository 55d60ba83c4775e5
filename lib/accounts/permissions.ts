import type { UserRole } from "@/db/enums";

/**
 * What each role may do in the dashboard: the one table every page and server action consults.
 * - owner: everything, including members, roles and the team's security settings;
 * - developer: API keys, webhooks and test payments, no member management or business settings;
 * - viewer: read-only everywhere (QA, support): sees lists and details, never a token or a webhook secret.
 * Every role manages its own sign-in (password, second factor) and may leave.
 */
export const PERMISSIONS = {
  "payments:write": ["owner", "developer"],
  // Revoking a key (protective) needs only the role; making or rolling one grants access (sudo mode).
  "api_keys:write": ["owner", "developer"],
  "api_keys:create": ["owner", "developer"],
  "webhooks:read": ["owner", "developer", "viewer"],
  "webhooks:write": ["owner", "developer"],
  "webhooks:secret": ["owner", "developer"],
  "settings:write": ["owner"],
  // Where the money goes.
  "payout_account:write": ["owner"],
  // Who takes the environment's payments, with the merchant's key at Mollie or Stripe (live money).
  "processor:connect": ["owner"],
  // Money leaving for the bank: a payout made or canceled by hand.
  "payouts:write": ["owner"],
  "members:manage": ["owner"],
  // Settings → Sandboxes: made, renamed and deleted (with all their data) by owners.
  "sandboxes:manage": ["owner"],
  // An account key makes sandboxes through the API (DESIGN.md, "Sandboxes API").
  "account_keys:create": ["owner"],
  // Who signed in, changed the bank account or revoked a key, from where: an owner's to read.
  "security_history:read": ["owner"],
  "account:self": ["owner", "developer", "viewer"],
  // One's own second factor, on or off.
  "two_factor:change": ["owner", "developer", "viewer"],
} as const satisfies Record<string, readonly UserRole[]>;

export type Permission = keyof typeof PERMISSIONS;

/**
 * The actions that can move money or grant access, with the words the password dialog uses: each needs the
 * password (and second factor) entered again in the same session within the last 10 minutes
 * (lib/accounts/reauthentication.ts). `authorized()` checks it for every action it runs with one of these.
 */
export const REAUTHENTICATED: Partial<Record<Permission, string>> = {
  "api_keys:create": "make or roll an API key",
  "members:manage": "change the team",
  "account_keys:create": "make an account key",
  "payout_account:write": "change the payout account",
  "processor:connect": "connect a processor",
  "webhooks:secret": "reveal or rotate a signing secret",
  "two_factor:change": "turn two-factor sign-in on or off",
};

export function can(role: UserRole, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly UserRole[]).includes(role);
}

export const ROLE_LABELS: Record<UserRole, string> = {
  owner: "Owner",
  developer: "Developer",
  viewer: "Viewer",
};

/** What a refused action says. */
export function forbiddenMessage(role: UserRole): string {
  return `Your role (${ROLE_LABELS[role]}) cannot do this. Ask an owner.`;
}
