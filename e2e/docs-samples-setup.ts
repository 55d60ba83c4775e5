import { findFreePort } from "../tests/support/free-port";
import type { SeedData } from "../tests/support/test-server";

/**
 * What docs/samples/checkout.spec.ts and sandbox-per-worker.spec.ts read, as a merchant's test reads its own settings: the platform
 * (PAYMENTS_API_URL), a write key (PAYMENTS_API_KEY), and the secret (WEBHOOK_SECRET) of a webhook endpoint
 * pointing at the shop the sample starts on SHOP_PORT. Runs after e2e/global-setup.ts started the server.
 * The merchant is the seeded "Treasury", which no e2e spec uses: nothing pays it unless the sample runs, so its
 * endpoint sends nothing to a shop that is not listening.
 */
export default async function docsSamplesSetup() {
  const { tokens } = JSON.parse(process.env.E2E_SEED_DATA!) as SeedData;
  const apiUrl = `http://127.0.0.1:${process.env.E2E_PORT}`;
  const shopPort = findFreePort();
  const response = await fetch(`${apiUrl}/api/webhook-endpoints`, {
    method: "POST",
    headers: { Authorization: `Bearer ${tokens.treasury}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      url: `http://127.0.0.1:${shopPort}/webhooks`,
      description: "docs/samples/checkout.spec.ts's shop",
    }),
  });
  if (response.status !== 201)
    throw new Error(
      `The samples' webhook endpoint was refused (${response.status}): ${await response.text()}`,
    );
  const { data } = (await response.json()) as { data: { secret: string } };
  process.env.PAYMENTS_API_URL = apiUrl;
  process.env.PAYMENTS_API_KEY = tokens.treasury;
  // docs/samples/sandbox-per-worker.spec.ts: an account key, whose sandboxes no other spec reads.
  process.env.PAYMENTS_ACCOUNT_KEY = tokens.account;
  process.env.WEBHOOK_SECRET = data.secret;
  process.env.SHOP_PORT = String(shopPort);
}
