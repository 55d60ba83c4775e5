import type { Metadata } from "next";
import { z } from "zod";
import { requireMerchantSession } from "@/app/_lib/session";
import { Link } from "@/components/link";
import { RelativeTime } from "@/components/relative-time";
import { Card, CardList } from "@/components/ui/card-list";
import { SimpleTable } from "@/components/ui/simple-table";
import { StatusBadge } from "@/components/ui/status-badge";
import { getDb } from "@/db/client";
import { can } from "@/lib/accounts/permissions";
import { getTokenUsage, type TokenUsage } from "@/lib/logs/queries";
import { scopeLabel } from "@/lib/tokens/schemas";
import { listApiTokens, type ApiTokenSummary, type TokenStatus } from "@/lib/tokens/tokens";
import { GenerateTokenForm } from "./generate-token-form";
import { TokenActions } from "./token-actions";

export const metadata: Metadata = { title: "API keys" };

const STATUS_TONE: Record<TokenStatus, "green" | "yellow" | "gray"> = {
  active: "green",
  expired: "yellow",
  revoked: "gray",
};

/** `?show=all` lists revoked and expired keys too (kept for audit); by default only active ones. */
const querySchema = z.object({ show: z.enum(["active", "all"]).catch("active").default("active") });

function TokenStatusCell({ token }: { token: ApiTokenSummary }) {
  return (
    <div className="space-y-1">
      <StatusBadge tone={STATUS_TONE[token.status]}>{token.status}</StatusBadge>
      {token.replacedBy && token.status === "active" && token.revokedAt ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Replaced by <span className="font-mono">{token.replacedBy.displayHint}</span>, stops{" "}
          <RelativeTime value={token.revokedAt} />
        </p>
      ) : null}
    </div>
  );
}

/** When the key was last used, and from the request log its last 24 hours: requests and the latest status. */
function LastUsed({ token, usage }: { token: ApiTokenSummary; usage: TokenUsage | undefined }) {
  return (
    <>
      {token.lastUsedAt ? <RelativeTime value={token.lastUsedAt} /> : <>Never</>}
      {usage ? (
        <Link
          href={`/dashboard/logs?token=${token.id}`}
          className="block text-xs text-indigo-700 hover:underline dark:text-indigo-300"
        >
          {usage.requests.toLocaleString("en-US")} in 24 h · last {usage.lastStatus}
        </Link>
      ) : null}
    </>
  );
}

function Expires({ token }: { token: ApiTokenSummary }) {
  return token.expiresAt ? <RelativeTime value={token.expiresAt} /> : <>Never</>;
}

/** Roll and revoke, for active keys and roles that manage keys; a key already rolled can only be revoked. */
function Actions({ token, canManage }: { token: ApiTokenSummary; canManage: boolean }) {
  if (token.status !== "active" || !canManage) return null;
  return <TokenActions tokenId={token.id} name={token.name} canRoll={!token.replacedBy} />;
}

export default async function ApiKeysPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchantId, role } = await requireMerchantSession();
  const canManage = can(role, "api_keys:write");
  const { show } = querySchema.parse(await searchParams);
  const [allTokens, usage] = await Promise.all([
    listApiTokens(getDb(), merchantId),
    getTokenUsage(getDb(), merchantId),
  ]);
  const tokens = show === "all" ? allTokens : allTokens.filter((token) => token.status === "active");
  const hidden = allTokens.length - tokens.length;
  return (
    <div className="max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">API keys</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Your backend sends a token as <code className="font-mono">Authorization: Bearer &lt;token&gt;</code>
          . Use one token per environment, keep them out of source code, and roll them periodically.
        </p>
      </div>
      {canManage ? <GenerateTokenForm owner={can(role, "payout_account:write")} /> : null}
      <div className="flex items-center justify-between gap-3 text-sm">
        <h2 className="text-base font-semibold">{show === "all" ? "All keys" : "Active keys"}</h2>
        {show === "all" ? (
          <Link href="/dashboard/api-keys" className="text-indigo-700 hover:underline dark:text-indigo-300">
            Hide revoked and expired
          </Link>
        ) : hidden > 0 ? (
          <Link
            href="/dashboard/api-keys?show=all"
            className="text-indigo-700 hover:underline dark:text-indigo-300"
          >
            Show revoked and expired ({hidden})
          </Link>
        ) : null}
      </div>
      <SimpleTable
        className="hidden sm:block"
        caption="API keys"
        headings={["Name", "Scope", "Created", "Last used", "Expires", "Status", ""]}
        empty="No active keys. Generate one above to call the API."
      >
        {tokens.map((token) => (
          <tr key={token.id}>
            <td className="px-4 py-3">
              <p className="min-w-32 font-medium [overflow-wrap:anywhere]">{token.name}</p>
              <p className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{token.displayHint}</p>
              {token.createdBy ? (
                <p className="text-xs text-zinc-600 [overflow-wrap:anywhere] dark:text-zinc-400">
                  Made by {token.createdBy}
                </p>
              ) : null}
            </td>
            {/* Wraps: "Read and write, payout account" kept on one line pushed the table past 1280 px. */}
            <td className="min-w-28 px-4 py-3">{scopeLabel(token)}</td>
            <td className="px-4 py-3">
              <RelativeTime value={token.createdAt} />
            </td>
            <td className="px-4 py-3">
              <LastUsed token={token} usage={usage.get(token.id)} />
            </td>
            <td className="px-4 py-3">
              <Expires token={token} />
            </td>
            <td className="px-4 py-3">
              <TokenStatusCell token={token} />
            </td>
            <td className="px-4 py-3">
              <Actions token={token} canManage={canManage} />
            </td>
          </tr>
        ))}
      </SimpleTable>
      {/* Below 640 px each key is a card: seven columns do not fit a phone. */}
      <CardList label="API keys" empty="No active keys. Generate one above to call the API.">
        {tokens.map((token) => (
          <Card key={token.id}>
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div>
                <p className="min-w-32 font-medium [overflow-wrap:anywhere]">{token.name}</p>
                <p className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{token.displayHint}</p>
              </div>
              <TokenStatusCell token={token} />
            </div>
            <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
              <dt className="text-zinc-600 dark:text-zinc-400">Scope</dt>
              <dd>{scopeLabel(token)}</dd>
              <dt className="text-zinc-600 dark:text-zinc-400">Last used</dt>
              <dd>
                <LastUsed token={token} usage={usage.get(token.id)} />
              </dd>
              <dt className="text-zinc-600 dark:text-zinc-400">Expires</dt>
              <dd>
                <Expires token={token} />
              </dd>
            </dl>
            <Actions token={token} canManage={canManage} />
          </Card>
        ))}
      </CardList>
    </div>
  );
}
