import type { Metadata } from "next";
import { requireMerchantSession } from "@/app/_lib/session";
import { formatDateTime } from "@/components/format";
import { SimpleTable } from "@/components/ui/simple-table";
import { StatusBadge } from "@/components/ui/status-badge";
import { getDb } from "@/db/client";
import { TOKEN_SCOPE_LABELS } from "@/lib/tokens/schemas";
import { listApiTokens, type TokenStatus } from "@/lib/tokens/tokens";
import { GenerateTokenForm } from "./generate-token-form";
import { TokenActions } from "./token-actions";

export const metadata: Metadata = { title: "API keys" };

const STATUS_TONE: Record<TokenStatus, "green" | "yellow" | "gray"> = {
  active: "green",
  expired: "yellow",
  revoked: "gray",
};

export default async function ApiKeysPage() {
  const { merchantId } = await requireMerchantSession();
  const tokens = await listApiTokens(getDb(), merchantId);
  return (
    <div className="max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">API keys</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Your backend sends a token as <code className="font-mono">Authorization: Bearer &lt;token&gt;</code>
          . Use one token per environment, keep them out of source code, and roll them periodically.
        </p>
      </div>
      <GenerateTokenForm />
      <SimpleTable
        caption="API tokens"
        headings={["Name", "Token", "Scope", "Created", "Last used", "Expires", "Status", ""]}
        empty="No tokens yet. Generate one above to call the API."
      >
        {tokens.map((token) => (
          <tr key={token.id}>
            <td className="min-w-32 px-4 py-3 font-medium">{token.name}</td>
            <td className="whitespace-nowrap px-4 py-3 font-mono text-xs">{token.displayHint}</td>
            <td className="whitespace-nowrap px-4 py-3">{TOKEN_SCOPE_LABELS[token.scope]}</td>
            <td className="whitespace-nowrap px-4 py-3">{formatDateTime(token.createdAt)}</td>
            <td className="whitespace-nowrap px-4 py-3">
              {token.lastUsedAt ? formatDateTime(token.lastUsedAt) : "Never"}
            </td>
            <td className="whitespace-nowrap px-4 py-3">
              {token.status === "active" && token.revokedAt
                ? `Rolled; stops ${formatDateTime(token.revokedAt)}`
                : token.expiresAt
                  ? formatDateTime(token.expiresAt)
                  : "Never"}
            </td>
            <td className="px-4 py-3">
              <StatusBadge tone={STATUS_TONE[token.status]}>{token.status}</StatusBadge>
            </td>
            <td className="px-4 py-3">
              {token.status === "active" ? <TokenActions tokenId={token.id} name={token.name} /> : null}
            </td>
          </tr>
        ))}
      </SimpleTable>
    </div>
  );
}
