import { randomBytes } from "node:crypto";
import {
  test as base,
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from "@playwright/test";
import { ENVIRONMENT_COOKIE } from "../lib/environments/dashboard-paths";
import { mailsTo as mailsIn } from "../tests/support/outbox";
import type { SeedData, SeedMerchant } from "../tests/support/test-server";

export { expect };

export function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${randomBytes(3).toString("hex")}@example.test`;
}

/**
 * A dashboard page's address as a pattern that holds whether or not the address names its environment
 * (`/sandbox/7/dashboard/webhooks/3` and `/dashboard/webhooks/3` alike).
 */
export function samePage(url: string): RegExp {
  const page = new URL(url, "http://page.invalid").pathname.replace(/^.*?(?=\/dashboard(\/|$))/, "");
  return new RegExp(`${page.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
}

/** Signs up a merchant: `name` is the business, `yourName` the optional name of the person signing up. */
export async function signUp(
  page: Page,
  account: { name: string; email: string; password: string; yourName?: string },
) {
  await page.goto("/signup");
  await page.getByLabel("Business name").fill(account.name);
  if (account.yourName) await page.getByLabel("Your name").fill(account.yourName);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

export async function logIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await fillLogInForm(page, { email, password });
}

/** Submits the login form already on screen (keeping any `next` the page was opened with). */
export async function fillLogInForm(page: Page, account: { email: string; password: string }) {
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Log in" }).click();
}

/** Logs in and waits for the dashboard, so the next navigation cannot cut the login short. */
export async function logInAs(page: Page, account: { email: string; password: string }) {
  await logIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** The main navigation's link to a dashboard page (the logo is a link too). */
export function navLink(page: Page, name: string) {
  return page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
}

/** Opens the account menu, clicking again if the first click came before the page hydrated. */
export async function openAccountMenu(page: Page) {
  const button = page.getByRole("button", { name: /Account menu/ });
  await expect(async () => {
    if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
    await expect(page.getByRole("button", { name: "Log out" })).toBeVisible({ timeout: 500 });
  }).toPass();
}

export async function logOut(page: Page) {
  await openAccountMenu(page);
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/**
 * Sudo mode: the password dialog a sensitive action opens when this session has not re-entered the password in
 * the last 10 minutes (signing in does not count). Confirmed here; the action then goes on by itself.
 */
export async function confirmItsYou(page: Page, password: string, code?: string) {
  const dialog = page.getByRole("dialog", { name: "Confirm it is you" });
  await dialog.getByLabel("Password").fill(password);
  if (code) await dialog.getByLabel("Authentication code").fill(code);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog).toHaveCount(0);
}

/** The mails the e2e server kept for `to` (MAIL_OUTBOX_DIR, e2e/global-setup.ts). */
export const mailsTo = (to: string) => mailsIn(process.env.E2E_MAIL_OUTBOX!, to);

/** The merchant seeded by global setup, for tests that need an existing account. */
const seedData = () => JSON.parse(process.env.E2E_SEED_DATA ?? "null") as SeedData;

/**
 * The seed account's first sandbox ("Test") and its keys as seeded, for the one spec that needs what only the
 * seed put there (a key with the payout-account scope): this test's browser opens there too.
 */
export async function inSeedTestSandbox(context: BrowserContext, baseURL: string) {
  const seeded = seedData();
  await context.addCookies([
    { name: ENVIRONMENT_COOKIE, value: String(seeded.seed.merchant_id), url: baseURL },
  ]);
  return seeded.tokens;
}

/** A sandbox of the seed account's own for one Playwright worker (docs/testing.md, "A sandbox per worker"). */
type WorkerSandbox = { id: number; token: string };

export const test = base.extend<{ seed: SeedMerchant; seedData: SeedData }, { workerSandbox: WorkerSandbox }>(
  {
    // Each test is its own client, as merchants on their own networks are: the server trusts one proxy hop
    // (TRUSTED_PROXIES=1), so per-address limits (sign-ups: 10 an hour) count each test apart.
    extraHTTPHeaders: async ({}, provide) =>
      provide({
        "X-Forwarded-For": `203.0.113.${1 + (Number.parseInt(randomBytes(1).toString("hex"), 16) % 254)}`,
      }),
    // The seed account's specs run in a sandbox each worker makes with the account's key and deletes at its end,
    // as docs/testing.md shows merchants: specs side by side never see each other's payments, endpoints or events.
    workerSandbox: [
      async ({ playwright }, provide, workerInfo) => {
        const api = await playwright.request.newContext({
          baseURL: `http://127.0.0.1:${process.env.E2E_PORT}`,
          extraHTTPHeaders: { Authorization: `Bearer ${seedData().tokens.account}` },
        });
        const made = await api.post("/api/sandboxes", {
          data: { name: `e2e worker ${workerInfo.workerIndex} ${Date.now()}` },
        });
        expect(made.status()).toBe(201);
        const { data } = (await made.json()) as { data: WorkerSandbox };
        await provide({ id: data.id, token: data.token });
        expect((await api.delete(`/api/sandboxes/${data.id}`)).status()).toBe(204);
        await api.dispose();
      },
      { scope: "worker" },
    ],
    seed: async ({ seedData }, provide) => provide(seedData.seed),
    // Its API key is the worker's sandbox's, and its sessions in this test's browser open there, as they would
    // where its user was last (another account's session ignores the cookie). Every other seeded merchant's stays.
    seedData: async ({ context, workerSandbox, baseURL }, provide) => {
      await context.addCookies([
        { name: ENVIRONMENT_COOKIE, value: String(workerSandbox.id), url: baseURL! },
      ]);
      const seeded = seedData();
      await provide({ ...seeded, tokens: { ...seeded.tokens, api: workerSandbox.token } });
    },
  },
);

/** "Mark as paid" / "Mark as failed" on a payment page, confirmed in its dialog (a settlement is final). */
export async function settleInDashboard(page: Page, label: "Mark as paid" | "Mark as failed") {
  await page.getByRole("button", { name: label }).click();
  await page.getByRole("dialog").getByRole("button", { name: label }).click();
}

/** Creates a payment through the API, as a merchant's backend does; returns its dashboard path. */
export async function createPaymentViaApi(
  request: APIRequestContext,
  token: string,
  data: Record<string, unknown>,
): Promise<string> {
  const created = await request.post("/api/payments", {
    headers: { Authorization: `Bearer ${token}` },
    data,
  });
  expect(created.status()).toBe(201);
  return created.headers().location!.replace("/api/payments/", "/dashboard/payments/");
}

/** "Create test payment" on the Payments page, as a merchant trying the dashboard does. */
export async function createTestPaymentInDashboard(
  page: Page,
  amount: string,
  options: { currency?: string; customerId?: string } = {},
) {
  await page.goto("/dashboard/payments");
  await page.getByRole("button", { name: "Create test payment" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a test payment" });
  await dialog.getByLabel("Amount").fill(amount);
  if (options.currency) await dialog.getByLabel("Currency").selectOption(options.currency);
  if (options.customerId) await dialog.getByLabel("Customer ID").fill(options.customerId);
  await dialog.getByRole("button", { name: "Create payment" }).click();
  await expect(dialog.getByText(/Payment \d+ created\./)).toBeVisible();
  await dialog.getByRole("button", { name: "Done" }).click();
}

/**
 * Invites a member with `role` from the owner's page (confirming the owner's password when asked: a session's
 * first team change) and accepts in a browser of their own; returns the member's page, on the dashboard (close
 * its context when done).
 */
export async function joinTeam(
  owner: Page,
  browser: Browser,
  role: "developer" | "viewer",
  ownerPassword: string,
): Promise<Page> {
  await owner.goto("/dashboard/team");
  await owner.getByLabel("Email").fill(uniqueEmail(role));
  await owner.getByLabel("Role").selectOption(role);
  await owner.getByRole("button", { name: "Invite" }).click();
  const asked = owner.getByRole("dialog", { name: "Confirm it is you" });
  const shown = owner.getByTestId("invitation-link");
  await expect(asked.or(shown)).toBeVisible();
  if (await asked.isVisible()) await confirmItsYou(owner, ownerPassword);
  const link = (await owner.getByTestId("invitation-link").textContent())!;
  const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.251" } });
  const member = await context.newPage();
  await member.goto(new URL(link).pathname);
  await member.getByLabel("Your name").fill(`Quinn ${role}`);
  await member.getByLabel("Password").fill(`${role} passphrase`);
  await member.getByRole("button", { name: "Join the team" }).click();
  await expect(member).toHaveURL(/\/dashboard$/);
  return member;
}

/** A payment made by the merchant's backend; its checkout_url. */
export async function newPayment(page: Page, token: string, body: Record<string, unknown> = {}) {
  const headers = { Authorization: `Bearer ${token}` };
  const created = await page.request.post("/api/payments", { headers, data: { amount: "12.50", ...body } });
  expect(created.status()).toBe(201);
  const id = Number(created.headers().location!.split("/").at(-1));
  const payment = (await (await page.request.get(`/api/payments/${id}`, { headers })).json()) as {
    data: { checkout_url: string };
  };
  return { id, checkoutUrl: payment.data.checkout_url };
}

/**
 * Completes a payment with the test helper, then has the payer's bank dispute it (`reason`, or the helper's
 * default): the dispute's id.
 */
export async function disputePayment(
  request: APIRequestContext,
  token: string,
  paymentId: number | string,
  reason?: string,
): Promise<number> {
  const headers = { Authorization: `Bearer ${token}` };
  const settled = await request.post(`/api/test-helpers/payments/${paymentId}/settle`, {
    headers,
    data: { outcome: "completed" },
  });
  expect(settled.status()).toBe(200);
  const opened = await request.post(`/api/test-helpers/payments/${paymentId}/dispute`, {
    headers,
    data: reason ? { reason } : {},
  });
  expect(opened.status()).toBe(201);
  return ((await opened.json()) as { data: { id: number } }).data.id;
}

export async function fillCard(page: Page, number: string) {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiration").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Ada Lovelace");
}

/**
 * Saves Settings → Payouts' bank account as its owner does: the form's button (`label`: "Save account", or
 * "Replace account" once there is one), then the password again in the dialog that asks for it (in a session
 * that has not confirmed it in the last 10 minutes: `asked`).
 */
export async function saveBankAccount(page: Page, password: string, label = "Save account", asked = true) {
  const account = page.getByRole("region", { name: "Bank account" });
  await account.getByRole("button", { name: label }).click();
  if (asked) await confirmItsYou(page, password);
}

/**
 * Settings → Security's "Set up two-factor sign-in", until its key shows. Clicked again only while the button is
 * still there: a click before hydration is lost, and a slow answer must not send the retry after a button that
 * is gone (it waited out the whole test on CI's loaded machine).
 */
export async function startTwoFactorSetup(page: Page, password: string) {
  const key = page.getByTestId("totp-key");
  const setUp = page.getByRole("button", { name: "Set up two-factor sign-in" });
  const asked = page.getByRole("dialog", { name: "Confirm it is you" });
  await expect(async () => {
    // Turning two-factor on asks for the password again (sudo mode), unless it was given lately.
    if (await asked.isVisible()) await confirmItsYou(page, password);
    else if (!(await key.isVisible()) && (await setUp.isVisible())) await setUp.click({ timeout: 5_000 });
    await expect(key).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
}
