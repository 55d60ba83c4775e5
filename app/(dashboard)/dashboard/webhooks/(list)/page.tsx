import type { Metadata } from "next";
import Link from "next/link";
import { requireMerchantSession } from "@/app/_lib/session";
import { RelativeTime } from "@/components/relative-time";
import { Card, CardList } from "@/components/ui/card-list";
import { SimpleTable } from "@/components/ui/simple-table";
import { getDb } from "@/db/client";
import { can } from "@/lib/accounts/permissions";
import { getEndpointHealth } from "@/lib/webhooks/endpoint-health";
import { listWebhookEndpoints, type WebhookEndpointSummary } from "@/lib/webhooks/endpoints";
import { describeRetrySchedule } from "@/lib/webhooks/retry-policy";
import { addEndpoint } from "../actions";
import { EndpointForm } from "../endpoint-form";
import { EndpointStatusBadge, HealthSummary } from "../endpoint-health";

export const metadata: Metadata = { title: "Webhooks" };

/** The endpoint's URL, linked to its page, and its description under it. */
function EndpointName({ endpoint }: { endpoint: WebhookEndpointSummary }) {
  return (
    <>
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
      </div>
      {can(role, "webhooks:write") ? (
        <EndpointForm action={addEndpoint} title="Add an endpoint" submitLabel="Add endpoint" />
      ) : null}
      <SimpleTable
        caption="Webhook endpoints"
        headings={["URL", "Events", "Last 24 hours", "Status", "Created"]}
        empty="No endpoints yet. Add one above to receive payment events."
        className="hidden sm:block"
      >
        {endpoints.map((endpoint) => (
          <tr key={endpoint.id}>
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
          </tr>
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
