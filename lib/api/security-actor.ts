import { sql } from "drizzle-orm";
import { selectRows } from "@/db/client";
import { clientIp, clientUserAgent } from "@/lib/platform/client-ip";
import { keyActorLabel, type SecurityActor } from "@/lib/security/history";
import type { ApiContext } from "./api-route";

/**
 * The API token that acts, as the security history and the mails name it: its name and hint (never the secret)
 * and who made it, with the request's client IP and user agent, and whether it carries `payout_account`. One
 * primary-key read, on the few routes the history records.
 */
export async function apiActor({
  db,
  merchantId,
  token,
  request,
}: Pick<ApiContext<unknown>, "db" | "merchantId" | "token" | "request">): Promise<
  SecurityActor & { payoutAccount: boolean }
> {
  const [row] = await selectRows<{
    name: string;
    display_hint: string;
    created_by: string | null;
    payout_account: boolean;
  }>(
    db,
    sql`select name, display_hint, created_by, payout_account from api_tokens
        where merchant_id = ${merchantId} and id = ${token.tokenId}`,
  );
  return {
    actor: row
      ? keyActorLabel({ name: row.name, displayHint: row.display_hint, createdBy: row.created_by })
      : `API token ${token.tokenId}`,
    ip: clientIp(request.headers),
    userAgent: clientUserAgent(request.headers),
    tokenId: token.tokenId,
    payoutAccount: row?.payout_account === true,
  };
}
