// The security history and the guarded payout account (DESIGN.md, "Security history, and a payout account a
// stolen session cannot redirect"), over real HTTP: each action writes exactly one record with its actor and
// target and a refused one none, only owners read it (403 for a developer), each merchant its own, the CSV defuses
// formulas, hostile text is shown as text; on a second server that holds payouts for an hour after the account
// is replaced, a replacement holds payouts and mails the owners, and 50 concurrent changes leave one account
// and one record each. On PostgreSQL: the records and the operator's CLI need the server's database, which a
// PGlite server holds alone.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { selectRows } from "@/db/client";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import { acceptInvitation, inviteMember } from "@/lib/accounts/invitations";
import { setMerchantRateLimit } from "@/lib/accounts/merchants";
import { readableTime } from "@/lib/platform/timestamps";
import { createApiToken } from "@/lib/tokens/tokens";
import { callApi } from "../support/api-client";
import { db } from "../support/direct-db";
import { logInOverHttp } from "../support/http-session";
import { mailsTo } from "../support/outbox";
import {
  adminCliEnvironment,
  runAdmin,
  startServerProcess,
  testEnvironment,
  uniqueEmail,
} from "../support/test-server";

const serverEnv = inject("serverEnv");
let baseUrl = inject("baseUrl");

type Recorded = {
  action: string;
  actor: string;
  ip: string | null;
  user_agent: string | null;
  target: string;
};

/** The merchant's records, oldest first (read in the test's process, as an auditor with the database would). */
async function records(merchantId: number, action?: string): Promise<Recorded[]> {
  return selectRows<Recorded>(
    db,
    sql`select action, actor, ip, user_agent, target from security_events
        where merchant_id = ${merchantId} ${action ? sql`and action = ${action}` : sql``} order by id`,
  );
}

/** A merchant of this test's own, with its owner's login and a write token (made without a record). */
async function newAccount(label: string) {
  // Stored in lower case, as every login email is.
  const email = uniqueEmail(label).toLowerCase();
  const password = "security passphrase";
  const owner = await createMerchantWithOwner(db, { name: label, email, password });
  // The race below sends 50 requests at once: past the default 30 a minute.
  await setMerchantRateLimit(db, owner.merchantId, { per_minute: 10_000 });
  const { token } = await createApiToken(db, owner.merchantId, {
    name: `${label} key`,
    scope: "write,payout_account",
  });
  const api = (route: string, request: Parameters<typeof callApi>[2] = {}) =>
    callApi(baseUrl, route, { ...request, token });
  return { ...owner, email, password, token, api };
}

const operatorEnv = () => ({ ...adminCliEnvironment(serverEnv), DATABASE_URL: serverEnv.DATABASE_URL });

const GOOD_IBAN = "DE89 3704 0044 0532 0130 00";
const OTHER_IBAN = "GB82 WEST 1234 5698 7654 32";

describe.runIf(process.env.DATABASE_URL)("the security history", () => {
  it("records a sign-in and a failed one with the IP and user agent; an unknown email and a refused form none", async () => {
    const account = await newAccount("Signin");
    const before = (await records(account.merchantId)).length;
    const client = { "X-Forwarded-For": "203.0.113.7", "User-Agent": "<script>alert(1)</script>" };
    const wrong = await logInOverHttp(baseUrl, account.email, "not the password", client);
    expect(wrong.location).not.toMatch(/\/dashboard$/);
    await logInOverHttp(baseUrl, uniqueEmail("nobody"), "whatever pw", client);
    const right = await logInOverHttp(baseUrl, account.email, account.password, client);
    expect(right.location).toMatch(/\/dashboard$/);
    const added = (await records(account.merchantId)).slice(before);
    expect(added).toEqual([
      {
        action: "user.sign_in_failed",
        actor: account.email,
        ip: "203.0.113.7",
        user_agent: "<script>alert(1)</script>",
        target: "wrong password",
      },
      {
        action: "user.signed_in",
        actor: account.email,
        ip: "203.0.113.7",
        user_agent: "<script>alert(1)</script>",
        target: "password",
      },
    ]);
    // The page shows the hostile user agent as text, never as markup.
    const page = await fetch(`${baseUrl}/dashboard/settings/security-history`, {
      headers: { cookie: right.cookie },
    });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)</script>");
  });

  it("records the API's actions with the token as the actor, once each; a refused one writes nothing", async () => {
    const account = await newAccount("Api");
    const before = (await records(account.merchantId)).length;
    const headers = { "User-Agent": "curl/8.5.0", "X-Forwarded-For": "198.51.100.4" };
    const created = await account.api("/api/webhook-endpoints", {
      json: { url: "https://example.com/hooks" },
      headers,
    });
    expect(created.status).toBe(201);
    const id = (created.body as { data: { id: number } }).data.id;
    expect(
      (await account.api(`/api/webhook-endpoints/${id}/rotate-secret`, { method: "POST", headers })).status,
    ).toBe(200);
    expect((await account.api(`/api/webhook-endpoints/${id}`, { method: "DELETE", headers })).status).toBe(
      204,
    );
    // Refused: a bad URL, another's endpoint, a bad IBAN. Nothing recorded.
    expect((await account.api("/api/webhook-endpoints", { json: { url: "ftp://x" }, headers })).status).toBe(
      422,
    );
    expect((await account.api(`/api/webhook-endpoints/${id}`, { method: "DELETE", headers })).status).toBe(
      404,
    );
    const badIban = await account.api("/api/payout-account", {
      method: "PUT",
      json: { account_holder: "Api Ltd", iban: "DE00 1234" },
      headers,
    });
    expect(badIban.status).toBe(422);
    const added = (await records(account.merchantId)).slice(before);
    const actor: unknown = expect.stringMatching(/^Api key \(pay_test_…[\w-]{4}\)$/);
    expect(added).toEqual([
      {
        action: "webhook_endpoint.created",
        actor,
        ip: "198.51.100.4",
        user_agent: "curl/8.5.0",
        target: `endpoint ${id} https://example.com/hooks`,
      },
      {
        action: "webhook_secret.rotated",
        actor,
        ip: "198.51.100.4",
        user_agent: "curl/8.5.0",
        target: `endpoint ${id} https://example.com/hooks`,
      },
      {
        action: "webhook_endpoint.deleted",
        actor,
        ip: "198.51.100.4",
        user_agent: "curl/8.5.0",
        target: `endpoint ${id} https://example.com/hooks`,
      },
    ]);
  });

  it("records the operator's token and pricing commands as the operator", async () => {
    const account = await newAccount("Operator");
    const env = operatorEnv();
    const created = runAdmin(
      ["token:create", "--email", account.email, "--name", "Operator key", "--json"],
      env,
    );
    expect(created.status, created.stderr).toBe(0);
    const list = JSON.parse(runAdmin(["token:list", "--email", account.email, "--json"], env).stdout) as {
      tokens: Array<{ id: number; hint: string }>;
    };
    const madeId = (JSON.parse(created.stdout) as { id: number }).id;
    const made = list.tokens.find((token) => token.id === madeId)!;
    const revoked = runAdmin(["token:revoke", "--email", account.email, "--id", String(made.id)], env);
    expect(revoked.status, revoked.stderr).toBe(0);
    const priced = runAdmin(
      ["merchant:pricing", "--email", account.email, "--percent", "1.4", "--fixed", "0.25"],
      env,
    );
    expect(priced.status, priced.stderr).toBe(0);
    const refused = runAdmin(
      ["merchant:pricing", "--email", account.email, "--percent", "x", "--fixed", "0.25"],
      env,
    );
    expect(refused.status).not.toBe(0);
    expect(await records(account.merchantId)).toEqual([
      {
        action: "api_token.created",
        actor: "operator",
        ip: null,
        user_agent: null,
        target: `Operator key (${made.hint}), write`,
      },
      {
        action: "api_token.revoked",
        actor: "operator",
        ip: null,
        user_agent: null,
        target: `Operator key (${made.hint})`,
      },
      {
        action: "pricing.changed",
        actor: "operator",
        ip: null,
        user_agent: null,
        target: "1.4% + 25 minor units per completed payment",
      },
    ]);
  });

  it("is an owner's: a developer gets 403 on the page and the CSV, and each merchant sees only its own", async () => {
    const account = await newAccount("Owners");
    const invitation = await inviteMember(db, account.merchantId, account.userId, {
      email: uniqueEmail("developer"),
      role: "developer",
    });
    const developer = await acceptInvitation(db, invitation.token, {
      name: "Dev",
      password: "developer passphrase",
    });
    const session = await logInOverHttp(baseUrl, developer.email, "developer passphrase");
    for (const route of [
      "/dashboard/settings/security-history",
      "/dashboard/settings/security-history/export",
    ]) {
      const refused = await fetch(`${baseUrl}${route}`, { headers: { cookie: session.cookie } });
      expect(refused.status, route).toBe(403);
    }
    const other = await newAccount("Neighbour");
    const theirs = await logInOverHttp(baseUrl, other.email, other.password);
    const csv = await fetch(`${baseUrl}/dashboard/settings/security-history/export`, {
      headers: { cookie: theirs.cookie },
    });
    const text = await csv.text();
    expect(text).toContain(other.email);
    expect(text).not.toContain(account.email);
    expect(text).not.toContain(developer.email);
  });

  it("writes formulas in the CSV as text: a leading =, +, - or @ is quoted", async () => {
    const account = await newAccount("Formulas");
    for (const agent of ['=HYPERLINK("http://evil")', "+1+1", "-2+3", "@SUM(A1)"])
      await logInOverHttp(baseUrl, account.email, "wrong password!", {
        "User-Agent": agent,
        "X-Forwarded-For": "198.51.100.77",
      });
    const owner = await logInOverHttp(baseUrl, account.email, account.password, {
      "X-Forwarded-For": "198.51.100.77",
    });
    const csv = await (
      await fetch(`${baseUrl}/dashboard/settings/security-history/export?action=user.sign_in_failed`, {
        headers: { cookie: owner.cookie },
      })
    ).text();
    const lines = csv.trimEnd().split("\n");
    expect(lines[0]).toBe("id,created_at,action,actor,ip,user_agent,target");
    expect(lines).toHaveLength(5);
    for (const field of ['"\'=HYPERLINK(""http://evil"")"', "'+1+1", "'-2+3", "'@SUM(A1)"])
      expect(csv).toContain(`,${field},`);
  });
});

describe.runIf(process.env.DATABASE_URL)("the payout account, guarded", () => {
  // A server on the same database whose replaced accounts hold payouts for an hour.
  let holding: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  let outbox = "";
  const sharedBaseUrl = baseUrl;
  beforeAll(async () => {
    const port = Number(new URL(sharedBaseUrl).port) + 63;
    const env = testEnvironment("security-hold", port, {
      PAYOUT_ACCOUNT_CHANGE_HOLD: "1h",
      AUTH_SECRET: serverEnv.AUTH_SECRET!,
      ENCRYPTION_KEYS: serverEnv.ENCRYPTION_KEYS!,
    });
    outbox = env.MAIL_OUTBOX_DIR!;
    holding = await startServerProcess(port, env);
    baseUrl = holding.baseUrl;
  });
  afterAll(async () => {
    baseUrl = sharedBaseUrl;
    await holding?.stop();
  });

  /** A completed payment of `amount` EUR, made available now. */
  async function earn(account: Awaited<ReturnType<typeof newAccount>>, amount: string) {
    const created = await account.api("/api/payments", { json: { amount, currency: "EUR" } });
    const id = Number(created.headers.get("location")!.split("/").at(-1));
    const settled = await account.api(`/api/test-helpers/payments/${id}/settle`, {
      json: { outcome: "completed" },
    });
    expect(settled.status).toBe(200);
    expect((await account.api("/api/test-helpers/balance/release", { method: "POST" })).status).toBe(200);
  }

  it("a first account pays out at once; replacing it mails every owner and holds payouts for the hour", async () => {
    const account = await newAccount("Hold");
    await earn(account, "50.00");
    const first = await account.api("/api/payout-account", {
      method: "PUT",
      json: { account_holder: "Hold Ltd", iban: GOOD_IBAN },
    });
    expect(first.status).toBe(200);
    expect((first.body as { data: { payouts_start_at: string | null } }).data.payouts_start_at).toBeNull();
    expect((await account.api("/api/payouts", { json: { currency: "EUR", amount: "10.00" } })).status).toBe(
      201,
    );
    expect(mailsTo(outbox, account.email)).toEqual([]);

    const replaced = await account.api("/api/payout-account", {
      method: "PUT",
      json: { account_holder: "Thief Ltd", iban: OTHER_IBAN },
      headers: { "X-Forwarded-For": "192.0.2.66" },
    });
    expect(replaced.status).toBe(200);
    const startsAt = (replaced.body as { data: { payouts_start_at: string } }).data.payouts_start_at;
    expect(Date.parse(startsAt) - Date.now()).toBeGreaterThan(55 * 60_000);
    const refused = await account.api("/api/payouts", { json: { currency: "EUR" } });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      message: "The given data was invalid.",
      errors: { payout_account: [`Payouts to the new account start at ${startsAt}.`] },
    });
    const [mail] = mailsTo(outbox, account.email);
    expect(mail).toContain("Subject: Your payout account was changed");
    expect(mail).toContain(
      "The payout account was changed to IBAN ending 5432, held by Thief Ltd, by Hold key (pay_test_…",
    );
    // What to do about it: revoke that key, with the page's link.
    expect(mail).toMatch(
      /revoke the key Hold key \(pay_test_…[\w-]{4}\) in API keys \(http[^)]+\/dashboard\/api-keys\)/,
    );
    expect(mail).toContain(", from 192.0.2.66.");
    // As a person reads a time ("2 Dec 2026, 19:54 UTC"), never ISO 8601.
    expect(mail).toContain(`Payouts to it start at ${readableTime(startsAt)}.`);
    expect(mail).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    expect((await records(account.merchantId, "payout_account.changed")).map((row) => row.target)).toEqual([
      "IBAN ending 3000, held by Hold Ltd (the first account)",
      `IBAN ending 3000 → IBAN ending 5432, held by Thief Ltd; payouts start at ${startsAt}`,
    ]);
    // The refused payout during the hold is recorded, and so are the payouts made with the key.
    expect((await records(account.merchantId, "payout.refused")).map((row) => row.target)).toEqual([
      `during the hold, which ends at ${startsAt}`,
    ]);
    expect(await records(account.merchantId, "payout.created")).toHaveLength(1);
  });

  it("50 concurrent changes: one account, one record each", async () => {
    const account = await newAccount("Race");
    const ibans = [GOOD_IBAN, OTHER_IBAN];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        account.api("/api/payout-account", {
          method: "PUT",
          json: { account_holder: `Racer ${index}`, iban: ibans[index % 2] },
        }),
      ),
    );
    const accepted = answers.filter((answer) => answer.status === 200).length;
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect(accepted).toBeGreaterThan(0);
    const [rows] = await selectRows<{ n: number | string }>(
      db,
      sql`select count(*) as n from payout_accounts where merchant_id = ${account.merchantId}`,
    );
    expect(Number(rows!.n)).toBe(1);
    const changes = await records(account.merchantId, "payout_account.changed");
    expect(changes).toHaveLength(accepted);
    expect(changes.filter((change) => change.target.endsWith("(the first account)"))).toHaveLength(1);
    const shown = (await account.api("/api/payout-account")).body as { data: { account_holder: string } };
    expect(shown.data.account_holder).toMatch(/^Racer \d+$/);
  });
});
