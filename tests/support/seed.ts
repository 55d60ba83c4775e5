// Seeds the accounts and tokens the test suites use, through the same domain functions the product uses,
// before the server starts (PGlite admits one process at a time). Prints one JSON object.
import "../../scripts/load-env";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { closeDatabase, getDb, migrateDatabase } from "@/db/client";
import { apiTokens, payoutAccounts } from "@/db/schema";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import { setMerchantRateLimit } from "@/lib/accounts/merchants";
import { startUserSession } from "@/lib/accounts/sessions";
import { confirmTwoFactorEnrolment, startTwoFactorEnrolment } from "@/lib/accounts/two-factor";
import { createAccountKey, liveEnvironmentOf } from "@/lib/environments/environments";
import { setMerchantPricing } from "@/lib/ledger/pricing";
import { setPayoutAccount } from "@/lib/payouts/account";
import { setPayoutSchedule } from "@/lib/payouts/schedule";
import { OPERATOR } from "@/lib/security/history";
import { createApiToken, revokeApiToken, rollApiToken } from "@/lib/tokens/tokens";
import { createWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { seedAccountant } from "./seed-accountant";
import { seedHistory } from "./seed-history";

const db = getDb();
await migrateDatabase();
const label = process.argv[2] ?? "suite";
const unique = `${Date.now()}-${randomBytes(3).toString("hex")}`;

async function merchant(name: string) {
  const password = "seed password 123";
  const businessName = `${name} ${label}`;
  const account = await createMerchantWithOwner(db, {
    name: businessName,
    email: `${name.toLowerCase()}-${label}-${unique}@example.test`,
    password,
  });
  return {
    merchant_id: account.merchantId,
    user_id: account.userId,
    email: account.email,
    name: businessName,
    password,
  };
}

/** `write,payout_account` for the money suites' merchants, whose tests set their payout account through the API. */
async function token(merchantId: number, name: string, scope = "write") {
  return (await createApiToken(db, merchantId, { name, scope })).token;
}

const MONEY = "write,payout_account";
const seed = await merchant("Seed");
const other = await merchant("Other");
// The suites send hundreds of requests with the seed merchant's tokens: it has the "contact support" raise.
// The limited merchant keeps the default 30 a minute for the rate-limit tests.
await setMerchantRateLimit(db, seed.merchant_id, { per_minute: 10_000 });
const limited = await merchant("Limited");
const sandboxer = await merchant("Sandboxer");
const clocked = await merchant("Clocked");
const seedLive = await liveEnvironmentOf(db, seed.merchant_id);
// Live was made with the account, before the raise: it gets it too (environment-isolation.test.ts calls every
// route with the live key).
await setMerchantRateLimit(db, seedLive, { per_minute: 10_000 });
const writeTokens: Record<string, string> = {};
for (const name of ["api", "badInput", "idempotency", "isolation"])
  writeTokens[name] = await token(seed.merchant_id, name);
for (const name of ["rateLimit", "rateLimitShared"])
  writeTokens[name] = await token(limited.merchant_id, name);

const expired = await createApiToken(db, seed.merchant_id, { name: "expired", expires_in_days: 1 });
await db
  .update(apiTokens)
  .set({ expiresAt: new Date(Date.now() - 1000) })
  .where(eq(apiTokens.id, expired.id));
const revoked = await createApiToken(db, seed.merchant_id, { name: "revoked" });
await revokeApiToken(db, seed.merchant_id, revoked.id);
const rolledNow = await createApiToken(db, seed.merchant_id, { name: "rolled now" });
const rolledNowReplacement = await rollApiToken(db, seed.merchant_id, rolledNow.id, { grace: "now" });
const rolledGrace = await createApiToken(db, seed.merchant_id, { name: "rolled with grace" });
await rollApiToken(db, seed.merchant_id, rolledGrace.id, { grace: "1h" });

// Webhook endpoints point at the receiver each test file starts on TEST_RECEIVER_PORT.
const receiver = `http://127.0.0.1:${process.env.TEST_RECEIVER_PORT ?? 3191}`;
const hooks = await merchant("Hooks");
await setMerchantRateLimit(db, hooks.merchant_id, { per_minute: 10_000 });
const hooksEndpoint = await createWebhookEndpoint(db, hooks.merchant_id, { url: `${receiver}/hooks` });
const flaky = await merchant("Flaky");
const flakyEndpoint = await createWebhookEndpoint(db, flaky.merchant_id, {
  url: `${receiver}/flaky`,
  events: ["payment.pending"],
});
// Its endpoints are made by the test that disables one of them.
const gone = await merchant("Gone");

/** A merchant whose owner signs in with a second factor; the TOTP secret lets a test make codes. */
async function twoFactorMerchant(name: string) {
  const account = await merchant(name);
  const { secret } = await startTwoFactorEnrolment(db, account.user_id);
  const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
  const sessionKey = await startUserSession(
    db,
    { userId: account.user_id, merchantId: account.merchant_id },
    { ip: "192.0.2.1", userAgent: null },
  );
  await confirmTwoFactorEnrolment(db, account.user_id, code, sessionKey);
  return { ...account, totp_secret: secret };
}
// One each for the code step's throttling and for replays: neither test may spend the other's codes.
const guessed = await twoFactorMerchant("Guessed");
const replayed = await twoFactorMerchant("Replayed");
// The ledger's: balances that no other suite's payments move, one at a price of its own.
const ledger = await merchant("Ledger");
await setMerchantRateLimit(db, ledger.merchant_id, { per_minute: 10_000 });
const priced = await merchant("Priced");
await setMerchantPricing(db, priced.merchant_id, { percent: "1.4", fixed: "0.25" });
// The SDK's balance and payouts, on the shared server: a balance that no other suite reads.
const treasury = await merchant("Treasury");
// Their payouts are the tests' own: no run of the schedule (say, at 00:00 UTC) pays them out meanwhile.
for (const { merchant_id } of [ledger, priced, treasury])
  await setPayoutSchedule(db, merchant_id, { payout_schedule: "manual" });
// A payout account replaced a moment ago, held for a day (the servers' PAYOUT_ACCOUNT_CHANGE_HOLD is 0 here).
const held = await merchant("Held");
await setPayoutAccount(db, held.merchant_id, {
  account_holder: "Held GmbH",
  iban: "DE89 3704 0044 0532 0130 00",
});
await db
  .update(payoutAccounts)
  .set({ payoutsStartAt: new Date(Date.now() + 86_400_000) })
  .where(eq(payoutAccounts.merchantId, held.merchant_id));
// Disputes opened from the CLI and the SDK: a list and a balance that no other suite reads.
const disputer = await merchant("Disputer");
await setPayoutSchedule(db, disputer.merchant_id, { payout_schedule: "manual" });
// Last month closed, for the accountant's reports.
const accountant = await merchant("Accountant");
await setPayoutSchedule(db, accountant.merchant_id, { payout_schedule: "manual" });
// Its reports are read page by page in the tests: past the default 30 requests a minute.
await setMerchantRateLimit(db, accountant.merchant_id, { per_minute: 10_000 });
const accountantMonth = await seedAccountant(db, accountant.merchant_id);
// Payments and refunds 40 days old beside today's, for the Overview's ranges.
const history = await merchant("History");
await seedHistory(db, history.merchant_id);

console.log(
  JSON.stringify({
    hooks: { ...hooks, secret: hooksEndpoint.secret, endpoint_id: hooksEndpoint.id },
    flaky: { ...flaky, secret: flakyEndpoint.secret, endpoint_id: flakyEndpoint.id },
    gone,
    guessed,
    history,
    accountant: { ...accountant, ...accountantMonth },
    replayed,
    seed,
    other,
    limited,
    ledger,
    priced,
    treasury,
    held,
    sandboxer,
    seed_live_id: seedLive,
    tokens: {
      ...writeTokens,
      live: await token(seedLive, "live"),
      account: (await createAccountKey(db, seed.merchant_id, "ci", OPERATOR)).token,
      sandboxer: (await createAccountKey(db, sandboxer.merchant_id, "ci", OPERATOR)).token,
      otherAccount: (await createAccountKey(db, other.merchant_id, "ci", OPERATOR)).token,
      clockAccount: (await createAccountKey(db, clocked.merchant_id, "ci", OPERATOR)).token,
      read: await token(seed.merchant_id, "read only", "read"),
      other: await token(other.merchant_id, "other"),
      expired: expired.token,
      revoked: revoked.token,
      rolledExpired: rolledNow.token,
      rolledReplacement: rolledNowReplacement.token,
      rolledInGrace: rolledGrace.token,
      hooks: await token(hooks.merchant_id, "hooks"),
      flaky: await token(flaky.merchant_id, "flaky"),
      gone: await token(gone.merchant_id, "gone"),
      payoutAccount: await token(seed.merchant_id, "payout account", MONEY),
      ledger: await token(ledger.merchant_id, "ledger", MONEY),
      priced: await token(priced.merchant_id, "priced", MONEY),
      treasury: await token(treasury.merchant_id, "treasury", MONEY),
      disputer: await token(disputer.merchant_id, "disputer", MONEY),
      accountant: await token(accountant.merchant_id, "accountant", MONEY),
    },
  }),
);
await closeDatabase();
