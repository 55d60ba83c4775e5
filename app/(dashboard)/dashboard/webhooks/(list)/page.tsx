import type { Metadata } from "next";
import { requireMerchantSession } from "@/app/_lib/session";
import { ActionForm } from "@/components/action-form";
import { Link } from "@/components/link";
import { RelativeTime } from "@/components/relative-time";
import { Card, CardList } from "@/components/ui/card-list";
import { LinkedRow } from "@/components/ui/linked-row";
import { SimpleTable } from "@/components/ui/simple-table";
import { StatusBadge } from "@/components/ui/status-badge";
import { getDb } from "@/db/client";
import { can } from "@/lib/accounts/permissions";
import { getEndpointHealth } from "@/lib/webhooks/endpoint-health";
import { listWebhookEndpoints, type WebhookEndpointSummary } from "@/lib/webhooks/endpoints";
import { describeRetrySchedule } from "@/lib/webhooks/retry-policy";
import { addEndpoint, addInbox } from "../actions";
import { EndpointForm } from "../endpoint-form";
import { EndpointStatusBadge, HealthSummary } from "../endpoint-health";

export const metadata: Metadata = { title: "Webhooks" };

/** The endpoint's URL (or "Inbox"), linked to its page, and its description under it. */
function EndpointName({ endpoint }: { endpoint: WebhookEndpointSummary }) {
  return (
    <>
      {endpoint.kind === "inbox" ? (
        <span className="mr-2">
          <StatusBadge tone="gray">inbox</StatusBadge>
        </span>
      ) : null}
      <Link
        href={`/dashboard/webhooks/${endpoint.id}`}
        className="font-medium text-indigo-600 hover:underline dark:text-indigo-400"
      >
        {endpoint.url}
      </Link>
      {endpoint.description ? (
        <p className="truncate text-xs text-zinc-600 dark:text-zinc-400">{endpoint.description}</p>
      ) : null}
    </>
  );
}

export default async function WebhooksPage() {
  const { merchantId, role } = await requireMerchantSession();
  const [endpoints, health] = await Promise.all([
    listWebhookEndpoints(getDb(), merchantId),
    getEndpointHealth(getDb(), merchantId),
  ]);
  return (
    <div className="max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Webhooks</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Every payment transition is sent to your endpoints, signed per the Standard Webhooks spec (verify
          with the standardwebhooks or svix libraries). Failed deliveries are retried{" "}
          {describeRetrySchedule()}.
        </p>
        <p className="mt-1 text-sm">
          <Link
            href="/dashboard/webhooks/debugger"
            className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            Signature debugger
          </Link>
          <span className="text-zinc-600 dark:text-zinc-400">
            : paste a delivery to learn why it does not verify.
          </span>
        </p>
      </div>
      {can(role, "webhooks:write") ? (
        <>
          <EndpointForm action={addEndpoint} title="Add an endpoint" submitLabel="Add endpoint" />
          <div className="flex flex-wrap items-center gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
            <div className="min-w-0 flex-1">
              <h2 className="text-base font-semibold">Test without a server</h2>
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                An inbox captures deliveries here, shows whether each signature verifies, and can fail on
                purpose so you can watch the retries.
              </p>
            </div>
            <ActionForm action={addInbox} fields={{}} submitLabel="Add inbox" />
          </div>
        </>
      ) : null}
      <SimpleTable
        caption="Webhook endpoints"
        headings={["URL", "Events", "Last 24 hours", "Status", "Created"]}
        empty="No endpoints yet. Add one above to receive payment events."
        className="hidden sm:block"
      >
        {endpoints.map((endpoint) => (
          <LinkedRow key={endpoint.id} href={`/dashboard/webhooks/${endpoint.id}`}>
            <td className="max-w-md truncate px-4 py-3">
              <EndpointName endpoint={endpoint} />
            </td>
            <td className="px-4 py-3 text-xs">{endpoint.eventTypes.join(", ")}</td>
            <td className="px-4 py-3 text-xs">
              <HealthSummary health={health.get(endpoint.id)} />
            </td>
            <td className="px-4 py-3">
              <EndpointStatusBadge endpoint={endpoint} />
            </td>
            <td className="whitespace-nowrap px-4 py-3">
              <RelativeTime value={endpoint.createdAt} />
            </td>
          </LinkedRow>
        ))}
      </SimpleTable>
      {/* Below 640 px each endpoint is a card, so its health and status stay in view. */}
      <CardList label="Webhook endpoints" empty="No endpoints yet. Add one above to receive payment events.">
        {endpoints.map((endpoint) => (
          <Card key={endpoint.id}>
            <div className="flex items-start justify-between gap-2">
              <div className="min-w-0 [overflow-wrap:anywhere]">
                <EndpointName endpoint={endpoint} />
              </div>
              <EndpointStatusBadge endpoint={endpoint} />
            </div>
            <p className="text-xs">
              <HealthSummary health={health.get(endpoint.id)} inline />
            </p>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">{endpoint.eventTypes.join(", ")}</p>
          </Card>
        ))}
      </CardList>
    </div>
  );
}
