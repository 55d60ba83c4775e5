import type { Metadata } from "next";
import { requireMerchantSession } from "@/app/_lib/session";
import { Link } from "@/components/link";
import { RelativeTime } from "@/components/relative-time";
import { CopyButton } from "@/components/ui/copy-button";
import { SimpleTable } from "@/components/ui/simple-table";
import { getDb } from "@/db/client";
import { getMerchantProfile } from "@/lib/accounts/merchants";
import { API_ERRORS, apiErrorBody } from "@/lib/api/api-errors";
import { MAX_AMOUNT } from "@/lib/money/amount";
import { appOrigin, getEnv } from "@/lib/platform/env";
import { listApiTokens } from "@/lib/tokens/tokens";

export const metadata: Metadata = { title: "Developers" };

const VERIFY_EXAMPLE = `import express from "express";
import { Webhook } from "standardwebhooks";

const webhook = new Webhook(process.env.PAYMENTS_WEBHOOK_SECRET); // whsec_…
const app = express();

// express.raw, not express.json: the signature covers the exact bytes sent.
app.post("/webhooks", express.raw({ type: "application/json" }), (req, res) => {
  let payload;
  try {
    payload = webhook.verify(req.body.toString("utf8"), req.headers);
  } catch {
    return res.status(400).end();
  }
  // payload.event is "payment.completed", …; payload.data is the payment.
  res.status(204).end();
});`;

function CodeBlock({ label, code }: { label: string; code: string }) {
  return (
    <figure className="space-y-2">
      <figcaption className="flex items-center justify-between gap-3 text-sm font-medium">
        {label}
        <CopyButton
          value={code}
          label={
            <>
              Copy<span className="sr-only"> {label}</span>
            </>
          }
        />
      </figcaption>
      {/* Below 640 px long lines wrap (anywhere in a URL): a phone hides the sideways scroll, so it read as cut off. */}
      <pre
        tabIndex={0}
        className="overflow-x-auto whitespace-pre-wrap rounded-md bg-zinc-900 p-4 font-mono text-xs leading-relaxed text-zinc-100 [overflow-wrap:anywhere] sm:whitespace-pre sm:[overflow-wrap:normal] dark:bg-black"
      >
        {code}
      </pre>
    </figure>
  );
}

export default async function DevelopersPage() {
  const session = await requireMerchantSession();
  const baseUrl = appOrigin();
  const db = getDb();
  const [merchant, tokens] = await Promise.all([
    getMerchantProfile(db, session.merchantId),
    listApiTokens(db, session.merchantId),
  ]);
  const perMinute = merchant?.rateLimitPerMinute ?? getEnv().API_RATE_LIMIT_PER_MINUTE;
  const liveTokens = tokens.filter((token) => token.status === "active");
  const auth = `-H "Authorization: Bearer $PAYMENTS_TOKEN" -H "Accept: application/json"`;
  return (
    <div className="max-w-4xl space-y-8">
      <div>
        <h1 className="text-2xl font-semibold">Developers</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Base URL <code className="font-mono">{baseUrl}</code>. Create a token under{" "}
          <Link className="text-indigo-600 underline dark:text-indigo-400" href="/dashboard/api-keys">
            API keys
          </Link>
          , then export it as <code className="font-mono">PAYMENTS_TOKEN</code>. The machine-readable contract
          is{" "}
          <a className="text-indigo-600 underline dark:text-indigo-400" href="/api/openapi.json">
            /api/openapi.json
          </a>{" "}
          (OpenAPI 3.1).
        </p>
      </div>
      <section className="space-y-4">
        <h2 className="text-lg font-semibold">Endpoints</h2>
        <CodeBlock
          label="List payments"
          code={`curl "${baseUrl}/api/payments?page=1&perPage=10" \\\n  ${auth}`}
        />
        <CodeBlock
          label="Create a payment"
          code={`curl -X POST "${baseUrl}/api/payments" \\\n  ${auth} \\\n  -H "Content-Type: application/json" \\\n  -H "Idempotency-Key: $(uuidgen)" \\\n  -d '{"amount": 12.50, "external_id": "order_1001", "customer_id": "cus_1"}'`}
        />
        <CodeBlock label="Retrieve a payment" code={`curl "${baseUrl}/api/payments/1" \\\n  ${auth}`} />
        <CodeBlock
          label="List events"
          code={`curl "${baseUrl}/api/events?type=payment.completed&payment_id=1" \\\n  ${auth}`}
        />
        <CodeBlock label="Retrieve an event" code={`curl "${baseUrl}/api/events/evt_…" \\\n  ${auth}`} />
        <CodeBlock
          label="Add a webhook endpoint"
          code={`curl -X POST "${baseUrl}/api/webhook-endpoints" \\\n  ${auth} \\\n  -H "Content-Type: application/json" \\\n  -d '{"url": "https://shop.example.com/webhooks", "event_types": ["payment.completed", "payment.failed"]}'`}
        />
        <CodeBlock
          label="Change a webhook endpoint"
          code={`curl -X PATCH "${baseUrl}/api/webhook-endpoints/1" \\\n  ${auth} \\\n  -H "Content-Type: application/json" \\\n  -d '{"enabled": false}'`}
        />
        <CodeBlock
          label="Rotate a signing secret"
          code={`curl -X POST "${baseUrl}/api/webhook-endpoints/1/rotate-secret" \\\n  ${auth}`}
        />
        <CodeBlock
          label="List an endpoint's deliveries"
          code={`curl "${baseUrl}/api/webhook-endpoints/1/deliveries?status=failed" \\\n  ${auth}`}
        />
        <CodeBlock
          label="Resend a delivery"
          code={`curl -X POST "${baseUrl}/api/webhook-deliveries/1/resend" \\\n  ${auth}`}
        />
      </section>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Verifying webhooks</h2>
        <p className="text-sm">
          Each delivery carries the Standard Webhooks headers webhook-id, webhook-timestamp and
          webhook-signature. Verify the <strong>raw body bytes</strong> as received: parsing the JSON and
          serialising it again changes the bytes and the signature no longer matches (the most common
          integration mistake). Deduplicate on webhook-id: a retry has the same one.
        </p>
        <CodeBlock label="Verify with standardwebhooks (Node.js, Express)" code={VERIFY_EXAMPLE} />
      </section>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Limits</h2>
        <ul className="list-disc space-y-1 pl-5 text-sm">
          <li>
            {perMinute.toLocaleString("en-US")} requests in any minute per token (a burst of{" "}
            {perMinute.toLocaleString("en-US")}, then one every {+(60 / perMinute).toFixed(3)} s). Every
            response has X-RateLimit-Limit and X-RateLimit-Remaining; past the limit, a 429 with Retry-After.
          </li>
          <li>perPage from 1 to 100 (default 10); page from 1.</li>
          <li>
            amount from 0 to {MAX_AMOUNT}, with at most its currency&apos;s decimals (2 for EUR, 0 for JPY, 3
            for KWD); returned as a string with exactly them, such as &quot;12.50&quot; or &quot;1500&quot;.
            currency: an ISO 4217 code, any case; omitted, your default currency (Settings).
          </li>
          <li>
            external_id and customer_id: strings of at most 255 characters. Request bodies: at most 16 KiB.
          </li>
          <li>
            Idempotency-Key: the same key and body within 24 hours replays the first response without a new
            payment.
          </li>
        </ul>
      </section>
      <section id="rate-limits" className="scroll-mt-6 space-y-3" aria-labelledby="rate-limits-heading">
        <h2 id="rate-limits-heading" className="text-lg font-semibold">
          Rate limits
        </h2>
        <p className="text-sm">
          Each key has its own budget of {perMinute.toLocaleString("en-US")} requests a minute
          {merchant?.rateLimitPerMinute ? " (raised for this account)" : ""}. To raise it, write to support
          with your merchant number ({session.merchantId}) and the rate you need at peak; the operator sets it
          for the account (<code className="font-mono">npm run admin -- merchant:rate-limit</code>), and every
          key has it from its next request. Until then, spread a batch over the minute or use several keys.
        </p>
        <SimpleTable
          caption="Rate limit of each active key"
          headings={["Key", "Limit", "First 429"]}
          empty="No active keys."
        >
          {liveTokens.map((token) => (
            <tr key={token.id}>
              <td className="px-4 py-3">
                {token.name}{" "}
                <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">
                  {token.displayHint}
                </span>
              </td>
              <td className="px-4 py-3 tabular-nums">{perMinute.toLocaleString("en-US")} / minute</td>
              <td className="px-4 py-3">
                {token.firstLimitedAt ? <RelativeTime value={token.firstLimitedAt} /> : "Never"}
              </td>
            </tr>
          ))}
        </SimpleTable>
      </section>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Errors</h2>
        <SimpleTable caption="API errors" headings={["Status", "When", "Body"]} empty="">
          {Object.entries(API_ERRORS).map(([name, entry]) => (
            <tr key={name}>
              <td className="px-4 py-2 font-mono">{entry.status}</td>
              <td className="px-4 py-2">{entry.when}</td>
              <td className="px-4 py-2 font-mono text-xs">{JSON.stringify(apiErrorBody(entry))}</td>
            </tr>
          ))}
        </SimpleTable>
      </section>
    </div>
  );
}
