import type { Metadata } from "next";
import { ActionForm } from "@/components/action-form";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { LiveUpdates } from "@/components/live-refresh";
import { RelativeTime } from "@/components/relative-time";
import { SelectField } from "@/components/ui/select-field";
import { BackLink } from "@/components/ui/simple-table";
import { TextField } from "@/components/ui/text-field";
import { getDb } from "@/db/client";
import { readFor } from "@/db/replicas";
import { can } from "@/lib/accounts/permissions";
import { liveVersion } from "@/lib/events/live-version";
import { deliveryLogQuerySchema, listEndpointDeliveries } from "@/lib/webhooks/delivery-log";
import { getEndpointHealth } from "@/lib/webhooks/endpoint-health";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/endpoint-schemas";
import { listInboxCaptures } from "@/lib/webhooks/inbox";
import { editEndpoint, recoverFailed, removeEndpoint, sendTest, toggleEndpoint } from "../actions";
import { EndpointForm } from "../endpoint-form";
import { EndpointStatusBadge, HealthSummary } from "../endpoint-health";
import { DeliveriesLog } from "./deliveries-log";
import { describeInboxAnswer, inboxAnswerValues } from "./inbox-answer";
import { InboxAnswerForm } from "./inbox-answer-form";
import { CAPTURES_PER_PAGE, InboxCaptures } from "./inbox-captures";
import { loadEndpoint } from "./load-endpoint";
import { SecretPanel } from "./secret-panel";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { record: endpoint } = await loadEndpoint(params);
  const name = endpoint.kind === "inbox" ? "Inbox" : new URL(endpoint.url).host;
  return { title: `${endpoint.description || name} · Webhooks` };
}

const card =
  "space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800";

export default async function EndpointPage({ params, searchParams }: Props) {
  const { merchantId, role, record: endpoint } = await loadEndpoint(params);
  // A viewer sees the endpoint and its deliveries, never its secret, and changes nothing.
  const canWrite = can(role, "webhooks:write");
  const search = await searchParams;
  const query = deliveryLogQuerySchema.parse(search);
  const inbox = endpoint.kind === "inbox";
  const capturePage = Number(/^[1-9]\d{0,5}$/.exec(String(search.capture_page))?.[0] ?? 1);
  // The version before what it versions, so a change in between renders the page again (LiveUpdates).
  const version = await liveVersion(getDb(), merchantId, { kind: "endpoint", id: endpoint.id });
  const [deliveries, health, captures] = await Promise.all([
    readFor(merchantId, (db) => listEndpointDeliveries(db, merchantId, endpoint.id, query)),
    getEndpointHealth(getDb(), merchantId),
    inbox
      ? readFor(merchantId, (db) =>
          listInboxCaptures(db, merchantId, endpoint.id, { page: capturePage, perPage: CAPTURES_PER_PAGE }),
        )
      : undefined,
  ]);
  const fields = { endpoint_id: endpoint.id };
  return (
    <div className="max-w-5xl space-y-6">
      <LiveUpdates scope={`endpoint:${endpoint.id}`} version={version} />
      <div>
        <BackLink href="/dashboard/webhooks">Webhooks</BackLink>
        {inbox ? (
          <>
            <h1 className="mt-2 text-2xl font-semibold">Inbox</h1>
            <p className="break-all font-mono text-sm text-zinc-600 dark:text-zinc-400">{endpoint.url}</p>
          </>
        ) : (
          <h1 className="mt-2 break-all text-2xl font-semibold">{endpoint.url}</h1>
        )}
        <div className="mt-2 flex flex-wrap items-center gap-3 text-sm text-zinc-600 dark:text-zinc-400">
          <EndpointStatusBadge endpoint={endpoint} />
          {endpoint.disabledReason ? <span>{endpoint.disabledReason}</span> : null}
          {endpoint.enabled && endpoint.failingSince ? (
            <span>
              Failing since <RelativeTime value={endpoint.failingSince} />
            </span>
          ) : null}
          <span>Events: {endpoint.eventTypes.join(", ")}</span>
        </div>
        <p className="mt-1 text-sm">
          <span className="text-zinc-600 dark:text-zinc-400">Last 24 hours: </span>
          <HealthSummary health={health.get(endpoint.id)} inline />
        </p>
        {endpoint.description ? (
          <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">{endpoint.description}</p>
        ) : null}
      </div>
      {canWrite ? (
        <div className="grid gap-4 md:grid-cols-2">
          {can(role, "webhooks:secret") ? (
            <div className={card}>
              <SecretPanel endpointId={endpoint.id} />
            </div>
          ) : null}
          {inbox ? (
            <div className={card}>
              <h2 className="text-base font-semibold">Inbox answer</h2>
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                Now: {describeInboxAnswer(endpoint)}. Fail on purpose to watch the retry schedule, the
                disabled-endpoint banner and the recovery.
              </p>
              <InboxAnswerForm endpointId={endpoint.id} current={inboxAnswerValues(endpoint)} />
            </div>
          ) : null}
          <div className={card}>
            <h2 className="text-base font-semibold">Send a test event</h2>
            {/* Disabled means nothing is sent to it, tests included (the domain refuses them too). */}
            {endpoint.enabled ? (
              <ActionForm action={sendTest} fields={fields} submitLabel="Send test event">
                <SelectField
                  label="Event type"
                  name="event"
                  options={WEBHOOK_EVENT_TYPES.map((type) => ({ value: type, label: type }))}
                />
              </ActionForm>
            ) : (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                Enable this endpoint to send it a test event.
              </p>
            )}
          </div>
          <div className={card}>
            <h2 className="text-base font-semibold">Recover failed deliveries</h2>
            <ActionForm action={recoverFailed} fields={fields} submitLabel="Recover failed">
              {/* Text, not datetime-local (the browser's format and zone): UTC, as the dashboard shows times. */}
              <TextField
                label="Failed since (UTC)"
                name="since"
                required
                autoComplete="off"
                placeholder="YYYY-MM-DD HH:MM"
                className="block w-44 rounded-md border-0 bg-white px-3 py-2 font-mono text-sm text-zinc-900 shadow-sm ring-1 ring-inset ring-zinc-300 placeholder:text-zinc-500 focus:ring-2 focus:ring-inset focus:ring-indigo-600 dark:bg-zinc-900 dark:text-zinc-100 dark:ring-zinc-700 dark:placeholder:text-zinc-400"
              />
            </ActionForm>
          </div>
          <div className={card}>
            <h2 className="text-base font-semibold">Endpoint</h2>
            <div className="flex flex-wrap gap-2">
              <ActionForm
                action={toggleEndpoint}
                fields={{ ...fields, enable: String(!endpoint.enabled) }}
                submitLabel={endpoint.enabled ? "Disable endpoint" : "Enable endpoint"}
              />
              <ConfirmActionButton
                action={removeEndpoint}
                fields={fields}
                label="Delete endpoint"
                title="Delete this endpoint?"
                description="It stops receiving events at once, and its delivery log is deleted with it."
                confirmLabel="Delete"
              />
            </div>
          </div>
        </div>
      ) : null}
      {canWrite ? (
        <details className="group">
          <summary className="cursor-pointer text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300">
            {inbox ? "Edit description and events" : "Edit URL, description and events"}
          </summary>
          <div className="mt-3">
            <EndpointForm
              action={editEndpoint}
              title="Edit endpoint"
              submitLabel="Save endpoint"
              endpointId={endpoint.id}
              kind={endpoint.kind}
              initial={{
                url: endpoint.url,
                description: endpoint.description ?? "",
                events: endpoint.eventTypes.join(","),
              }}
            />
          </div>
        </details>
      ) : null}
      {captures ? (
        <InboxCaptures
          endpointId={endpoint.id}
          captures={captures.items}
          total={captures.total}
          page={capturePage}
        />
      ) : null}
      <DeliveriesLog endpointId={endpoint.id} page={deliveries} query={query} canResend={canWrite} />
    </div>
  );
}
