import type { Metadata } from "next";
import { requireMerchantSession } from "@/app/_lib/session";
import { BackLink } from "@/components/ui/simple-table";
import { getDb } from "@/db/client";
import { idParam } from "@/lib/platform/validation";
import { listWebhookEndpoints } from "@/lib/webhooks/endpoints";
import { getInboxCapture } from "@/lib/webhooks/inbox";
import { DebuggerForm } from "./debugger-form";

export const metadata: Metadata = { title: "Signature debugger · Webhooks" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * The signature debugger: paste a delivery as the receiver got it and learn whether it verifies, and if not,
 * why. Opened from an inbox capture, it starts from that capture's exact headers and body.
 */
export default async function DebuggerPage({ searchParams }: Props) {
  const { merchantId } = await requireMerchantSession();
  const { capture: captureParam } = await searchParams;
  const captureId = idParam.safeParse(captureParam).data;
  const [endpoints, capture] = await Promise.all([
    listWebhookEndpoints(getDb(), merchantId),
    captureId ? getInboxCapture(getDb(), merchantId, captureId) : undefined,
  ]);
  return (
    <div className="max-w-4xl space-y-6">
      <div>
        <BackLink href="/dashboard/webhooks">Webhooks</BackLink>
        <h1 className="mt-2 text-2xl font-semibold">Signature debugger</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Paste a delivery exactly as your receiver got it. The platform holds every signing secret, so it can
          say why a signature does not verify: a re-serialised body, an old timestamp, a rotated secret or
          another endpoint&apos;s secret. No secret is ever shown.
        </p>
      </div>
      {endpoints.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Add an endpoint or an inbox first.</p>
      ) : (
        <DebuggerForm
          endpoints={endpoints.map((endpoint) => ({
            value: String(endpoint.id),
            label: `${endpoint.id} · ${endpoint.kind === "inbox" ? `Inbox ${endpoint.description ?? ""}`.trim() : endpoint.url}`,
          }))}
          initial={
            capture
              ? {
                  endpoint_id: String(capture.endpoint_id),
                  headers: JSON.stringify(capture.headers, null, 2),
                  body: capture.body,
                }
              : undefined
          }
          capture={capture ? { id: capture.id, receivedAt: capture.received_at } : undefined}
        />
      )}
    </div>
  );
}
