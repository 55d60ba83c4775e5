import type { Metadata } from "next";
import Link from "next/link";
import { requireMerchantSession } from "@/app/_lib/session";
import { RelativeTime } from "@/components/relative-time";
import { SimpleTable } from "@/components/ui/simple-table";
import { StatusBadge } from "@/components/ui/status-badge";
import { getDb } from "@/db/client";
import { listWebhookEndpoints } from "@/lib/webhooks/endpoints";
import { describeRetrySchedule } from "@/lib/webhooks/retry-policy";
import { AddEndpointForm } from "./add-endpoint-form";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const { merchantId } = await requireMerchantSession();
  const endpoints = await listWebhookEndpoints(getDb(), merchantId);
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
      <AddEndpointForm />
      <SimpleTable
        caption="Webhook endpoints"
        headings={["URL", "Events", "Status", "Created"]}
        empty="No endpoints yet. Add one above to receive payment events."
      >
        {endpoints.map((endpoint) => (
          <tr key={endpoint.id}>
            <td className="max-w-md truncate px-4 py-3 font-medium">
              <Link
                href={`/dashboard/webhooks/${endpoint.id}`}
                className="text-indigo-600 hover:underline dark:text-indigo-400"
              >
                {endpoint.url}
              </Link>
              {endpoint.description ? (
                <p className="truncate text-xs font-normal text-zinc-600 dark:text-zinc-400">
                  {endpoint.description}
                </p>
              ) : null}
            </td>
            <td className="px-4 py-3 text-xs">{endpoint.eventTypes.join(", ")}</td>
            <td className="px-4 py-3">
              <StatusBadge tone={endpoint.enabled ? "green" : "gray"}>
                {endpoint.enabled ? "enabled" : "disabled"}
              </StatusBadge>
            </td>
            <td className="whitespace-nowrap px-4 py-3">
              <RelativeTime value={endpoint.createdAt} />
            </td>
          </tr>
        ))}
      </SimpleTable>
    </div>
  );
}
