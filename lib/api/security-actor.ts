import { sql } from "drizzle-orm";
import { selectRows } from "@/db/client";
import { clientIp } from "@/lib/platform/client-ip";
import { tokenLabel, type SecurityActor } from "@/lib/security/history";
import type { ApiContext } from "./api-route";

/**
 * The API token that acts, as the security history names it (its name and hint, never the secret), with the
 * request's client IP and user agent. One primary-key read, on the few routes the history records.
 */
export async function apiActor({
  db,
  merchantId,
  token,
  request,
}: Pick<ApiContext<unknown>, "db" | "merchantId" | "token" | "request">): Promise<SecurityActor> {
  const [row] = await selectRows<{ name: string; display_hint: string }>(
    db,
    sql`select name, display_hint from api_tokens where merchant_id = ${merchantId} and id = ${token.tokenId}`,
  );
  return {
    actor: row ? tokenLabel({ name: row.name, displayHint: row.display_hint }) : `API token ${token.tokenId}`,
    ip: clientIp(request.headers),
    userAgent: request.headers.get("user-agent"),
  };
}
