import { expect, test as base } from "@playwright/test";

// PAYMENTS_API_URL is the platform, PAYMENTS_ACCOUNT_KEY an account key (pay_acct_…). Each Playwright worker
// makes a sandbox of its own for the run, and deletes it with everything in it at the end: specs running side
// by side never see each other's payments, endpoints or events.
const platform = process.env.PAYMENTS_API_URL;
const account = { Authorization: `Bearer ${process.env.PAYMENTS_ACCOUNT_KEY}` };

type Sandbox = { id: number; name: string; token: string };

export const test = base.extend<object, { sandbox: Sandbox }>({
  sandbox: [
    async ({ playwright }, use, workerInfo) => {
      const api = await playwright.request.newContext({ extraHTTPHeaders: account });
      const made = await api.post(`${platform}/api/sandboxes`, {
        data: { name: `e2e-${Date.now()}-worker-${workerInfo.workerIndex}` },
      });
      expect(made.status()).toBe(201);
      const { data: sandbox } = (await made.json()) as { data: Sandbox };
      await use(sandbox);
      expect((await api.delete(`${platform}/api/sandboxes/${sandbox.id}`)).status()).toBe(204);
      await api.dispose();
    },
    { scope: "worker" },
  ],
});

test("this worker's sandbox holds only what this worker made", async ({ sandbox, request }) => {
  const api = { Authorization: `Bearer ${sandbox.token}` };
  const created = await request.post(`${platform}/api/payments`, {
    headers: api,
    data: { amount: "9.99", currency: "EUR", external_id: "order_1" },
  });
  expect(created.status()).toBe(201);

  const listed = await request.get(`${platform}/api/payments`, { headers: api });
  const { data, meta } = (await listed.json()) as {
    data: Array<{ external_id: string }>;
    meta: { total: number };
  };
  expect(meta.total).toBe(1);
  expect(data[0]!.external_id).toBe("order_1");
});
