// Dashboard URLs name their environment (DESIGN.md, "Live and sandboxes": a copied link opens where it was made):
// `/live/dashboard/…` and `/sandbox/<id>/dashboard/…`. proxy.ts serves them from the one `/dashboard` page tree,
// passing the environment on in ENVIRONMENT_HEADER; the session checks it belongs to the signed-in account.
// Pure string work, shared by the proxy, the session and the client's links.

/** The environment a request's URL named, set by proxy.ts only (a client's own header of that name is dropped). */
export const ENVIRONMENT_HEADER = "x-payments-environment";
/** Where the user was last: an unprefixed dashboard URL (a link, a redirect) opens there. */
export const ENVIRONMENT_COOKIE = "payments_environment";

/** `live`, or a sandbox's id in decimal. */
export type EnvironmentSelector = string;

const PREFIXED = /^\/(live|sandbox\/[1-9][0-9]{0,15})(\/dashboard(?:\/.*)?)$/;
const SELECTOR = /^(live|[1-9][0-9]{0,15})$/;

/** A cookie's or header's selector when it is well formed, else null. */
export function readSelector(value: string | null | undefined): EnvironmentSelector | null {
  return value && SELECTOR.test(value) ? value : null;
}

/** A path's environment and its page under `/dashboard`; `selector` null when the path names none. */
export function splitDashboardPath(pathname: string): { selector: EnvironmentSelector | null; page: string } {
  const match = PREFIXED.exec(pathname);
  if (!match) return { selector: null, page: pathname };
  return { selector: match[1] === "live" ? "live" : match[1]!.slice("sandbox/".length), page: match[2]! };
}

/** The selector that names an environment in a URL and the switcher: `live`, or the sandbox's id. */
export function selectorOf(environment: { kind: "live" | "sandbox"; id: number }): EnvironmentSelector {
  return environment.kind === "live" ? "live" : String(environment.id);
}

/** The URL prefix that names an environment: `/live` or `/sandbox/<id>`. */
export function environmentPrefix(selector: EnvironmentSelector): string {
  return selector === "live" ? "/live" : `/sandbox/${selector}`;
}

/** A dashboard page's path in an environment (`page` starts with `/dashboard`). */
export function pathIn(selector: EnvironmentSelector, page: string): string {
  return `${environmentPrefix(selector)}${page}`;
}

/**
 * Where switching environments lands: the same section of the dashboard, without the record or anything after
 * it (payment 12 of one environment is not the other's): `/dashboard/payments/12/refunds` → `/dashboard/payments`.
 */
export function sectionOf(page: string): string {
  const kept: string[] = [];
  for (const segment of page.split("/").slice(1)) {
    if (/^\d+$/.test(segment) || segment.startsWith("[")) break;
    kept.push(segment);
  }
  return `/${kept.join("/")}`;
}
