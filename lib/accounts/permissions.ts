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
  "api_keys:write": ["owner", "developer"],
  "webhooks:read": ["owner", "developer", "viewer"],
  "webhooks:write": ["owner", "developer"],
  "webhooks:secret": ["owner", "developer"],
  "settings:write": ["owner"],
  // Money leaving for the bank: a payout made or canceled by hand.
  "payouts:write": ["owner"],
  "members:manage": ["owner"],
  // Who signed in, changed the bank account or revoked a key, from where: an owner's to read.
  "security_history:read": ["owner"],
  "account:self": ["owner", "developer", "viewer"],
} as const satisfies Record<string, readonly UserRole[]>;

export type Permission = keyof typeof PERMISSIONS;

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
