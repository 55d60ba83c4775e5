import type { Metadata } from "next";
import { requireMerchantSession } from "@/app/session";
import { formatDateTime } from "@/components/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { getDb } from "@/db/client";
import { listApiTokens, type TokenStatus } from "@/lib/api-tokens";
import { GenerateTokenForm } from "./generate-token-form";
import { TokenActions } from "./token-actions";

export const metadata: Metadata = { title: "API keys" };

const STATUS_TONE: Record<TokenStatus, "green" | "yellow" | "gray"> = { active: "green", expired: "yellow", revoked: "gray" };

export default async function ApiKeysPage() {
  const { merchantId } = await requireMerchantSession();
  const tokens = await listApiTokens(getDb(), merchantId);
  return (
    <div className="max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">API keys</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Your backend sends a token as <code className="font-mono">Authorization: Bearer &lt;token&gt;</code>. Use one token per
          environment, keep them out of source code, and roll them periodically.
        </p>
      </div>
      <GenerateTokenForm />
      <div className="relative overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
        <table className="min-w-full divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
          <caption className="sr-only">API tokens</caption>
          <thead className="text-left text-xs uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
            <tr>
              {["Name", "Token", "Scope", "Created", "Last used", "Expires", "Status"].map((heading) => (
                <th key={heading} scope="col" className="px-4 py-3 font-medium">
                  {heading}
                </th>
              ))}
              <th scope="col" className="px-4 py-3">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
            {tokens.length === 0 ? (
              <tr>
                <td colSpan={8} className="px-4 py-8 text-center text-zinc-500">
                  No tokens yet. Generate one above to call the API.
                </td>
              </tr>
            ) : (
              tokens.map((token) => (
                <tr key={token.id}>
                  <td className="px-4 py-3 font-medium">{token.name}</td>
                  <td className="px-4 py-3 font-mono text-xs">{token.displayHint}</td>
                  <td className="px-4 py-3">{token.scope === "write" ? "Read and write" : "Read only"}</td>
                  <td className="whitespace-nowrap px-4 py-3">{formatDateTime(token.createdAt)}</td>
                  <td className="whitespace-nowrap px-4 py-3">{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : "Never"}</td>
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
                  <td className="px-4 py-3">{token.status === "active" ? <TokenActions tokenId={token.id} name={token.name} /> : null}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
