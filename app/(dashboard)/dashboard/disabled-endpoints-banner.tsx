import { memberForRoute } from "@/app/_lib/session";
import { Link } from "@/components/link";
import { Alert } from "@/components/ui/alert";
import { getDb } from "@/db/client";
import { listPlatformDisabledEndpoints } from "@/lib/webhooks/endpoints";

/**
 * On every page while the platform has disabled one of the merchant's endpoints: events stop reaching it,
 * which is easy to miss. It goes once the endpoint is re-enabled or deleted.
 */
export async function DisabledEndpointsBanner() {
  // Not for a member still owing the team's second factor: the layout renders around their Security page.
  const member = await memberForRoute();
  if (!member) return null;
  const disabled = await listPlatformDisabledEndpoints(getDb(), member.merchantId);
  if (disabled.length === 0) return null;
  return (
    <div className="mb-6 max-w-6xl space-y-2" data-testid="disabled-endpoints-banner">
      {disabled.map((endpoint) => (
        <Alert key={endpoint.id} tone="warning">
          <span className="font-medium">Webhook endpoint disabled:</span>{" "}
          <span className="break-all font-mono text-xs">{endpoint.url}</span> receives no events.{" "}
          {endpoint.disabledReason}{" "}
          <Link
            href={`/dashboard/webhooks/${endpoint.id}`}
            className="font-medium underline underline-offset-2"
          >
            Review and re-enable
          </Link>
        </Alert>
      ))}
    </div>
  );
}
