import { memberForRoute } from "@/app/_lib/session";
import { readDbFor } from "@/db/replicas";
import { can } from "@/lib/accounts/permissions";
import { csvResponse } from "@/lib/platform/csv";
import { exportSecurityEvents, securityHistoryFiltersSchema } from "@/lib/security/history";

/**
 * The security history as CSV, filtered as the page is: owners only (403 for any other role). Every field that
 * came from a request (a user agent, a name) is written so a spreadsheet shows it and never runs it (csvField).
 */
export async function GET(request: Request): Promise<Response> {
  const member = await memberForRoute();
  if (!member) return new Response("Log in to export the security history.", { status: 401 });
  if (!can(member.role, "security_history:read"))
    return new Response("Only an owner can export the security history.", { status: 403 });
  const filter = securityHistoryFiltersSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return csvResponse({
    header: ["id", "created_at", "action", "actor", "ip", "user_agent", "target"],
    batches: exportSecurityEvents(await readDbFor(member.accountId), member.accountId, filter),
    toFields: (event) => [
      event.id,
      event.createdAt,
      event.action,
      event.actor,
      event.ip,
      event.userAgent,
      event.target,
    ],
    filename: `security-history-${new Date().toISOString().slice(0, 10)}.csv`,
  });
}
