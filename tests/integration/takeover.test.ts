// Account takeover paths (DESIGN.md, "API tokens" and "Changing the payout account"), over real HTTP: only a
// key an owner made with the payout_account scope may replace the payout account; any other key, a
// developer's included, gets 403 and changes nothing; the scoped key's change is recorded and mailed as the key
// and the person who made it, with what to do. On PostgreSQL: the keys are made in the test's process, which a
// PGlite server's database does not admit.
import net from "node:net";
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { selectRows } from "@/db/client";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import { DomainError } from "@/lib/platform/errors";
import { createApiToken } from "@/lib/tokens/tokens";
import { callApi } from "../support/api-client";
import { db } from "../support/direct-db";
import { logInOverHttp } from "../support/http-session";
import { mailsTo } from "../support/outbox";
import { uniqueEmail } from "../support/test-server";

const baseUrl = inject("baseUrl");
const outbox = inject("serverEnv").MAIL_OUTBOX_DIR!;

const IBAN = "DE89 3704 0044 0532 0130 00";
const OTHER_IBAN = "GB82 WEST 1234 5698 7654 32";

async function newOwner(label: string) {
  const email = uniqueEmail(label).toLowerCase();
  return {
    ...(await createMerchantWithOwner(db, { name: label, email, password: "takeover pw 123" })),
    email,
  };
}

const member = (email: string) => ({ actor: email, ip: "198.51.100.9", userAgent: "test" });

describe.runIf(process.env.DATABASE_URL)("the payout account through the API", () => {
  it("a key without payout_account, a developer's or an owner's, gets 403 and changes nothing", async () => {
    const owner = await newOwner("Scopeless");
    const developer = "dev@" + owner.email.split("@")[1];
    const developerKey = await createApiToken(
      db,
      owner.merchantId,
      { name: "dev-ci", scope: "write" },
      member(developer),
      { createdBy: developer, mayGrantPayoutAccount: false },
    );
    const ownerWriteKey = await createApiToken(
      db,
      owner.merchantId,
      { name: "backend" },
      member(owner.email),
      {
        createdBy: owner.email,
        mayGrantPayoutAccount: true,
      },
    );
    for (const token of [developerKey.token, ownerWriteKey.token]) {
      const refused = await callApi(baseUrl, "/api/payout-account", {
        method: "PUT",
        token,
        json: { account_holder: "Thief Ltd", iban: IBAN },
      });
      expect([refused.status, refused.body]).toEqual([403, { message: "This action is unauthorized." }]);
    }
    expect((await callApi(baseUrl, "/api/payout-account", { token: ownerWriteKey.token })).status).toBe(404);
  });

  it("a developer can never make or roll a key with payout_account", async () => {
    const owner = await newOwner("Developer");
    const developer = { createdBy: "dev@example.test", mayGrantPayoutAccount: false };
    const refusal = createApiToken(
      db,
      owner.merchantId,
      { name: "widened", scope: "write,payout_account" },
      member("dev@example.test"),
      developer,
    );
    await expect(refusal).rejects.toThrow(DomainError);
    await expect(refusal).rejects.toThrow("Only an owner can make a key with the payout_account scope.");
    const [made] = await selectRows<{ n: number | string }>(
      db,
      sql`select count(*) as n from api_tokens where merchant_id = ${owner.merchantId}`,
    );
    expect(Number(made!.n)).toBe(0);
  });

  it("an owner's scoped key works: recorded and mailed as the key and its maker, with what to do", async () => {
    const owner = await newOwner("Scoped");
    const key = await createApiToken(
      db,
      owner.merchantId,
      { name: "treasury-bot", scope: "write,payout_account" },
      member(owner.email),
      { createdBy: owner.email, mayGrantPayoutAccount: true },
    );
    const put = (iban: string) =>
      callApi(baseUrl, "/api/payout-account", {
        method: "PUT",
        token: key.token,
        json: { account_holder: "Scoped GmbH", iban },
        headers: { "X-Forwarded-For": "192.0.2.44" },
      });
    expect((await put(IBAN)).status).toBe(200);
    expect((await put(OTHER_IBAN)).status).toBe(200);
    // The same holder and IBAN again: nothing changes, no record, no mail, no new hold.
    const again = await put(OTHER_IBAN);
    expect(again.status).toBe(200);
    const rows = await selectRows<{ actor: string; target: string }>(
      db,
      sql`select actor, target from security_events
          where merchant_id = ${owner.merchantId} and action = 'payout_account.changed' order by id`,
    );
    expect(rows).toHaveLength(2);
    expect(rows[1]!.actor).toMatch(
      new RegExp(`^treasury-bot \\(pay_test_…[\\w-]{4}\\), made by ${owner.email}$`),
    );
    expect(rows[1]!.target).toContain("held by Scoped GmbH");
    const mails = mailsTo(outbox, owner.email).filter((mail) => mail.includes("payout account was changed"));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`, made by ${owner.email}, from 192.0.2.44.`);
    expect(mails[0]).toContain("revoke the key treasury-bot (pay_test_…");
  });
});

describe.runIf(process.env.DATABASE_URL)("the security history's details", () => {
  it("a User-Agent in UTF-8 is stored as sent", async () => {
    const owner = await newOwner("Agent");
    const key = await createApiToken(
      db,
      owner.merchantId,
      { name: "agent", scope: "write,payout_account" },
      member(owner.email),
      { createdBy: owner.email, mayGrantPayoutAccount: true },
    );
    const agent = "Kasse/2.0 (Zürich; 日本)";
    const body = JSON.stringify({ account_holder: "Agent AG", iban: IBAN });
    // The UTF-8 bytes on the wire, as a client in another language sends them (written raw: Node's own client
    // would encode the header itself).
    const url = new URL(baseUrl);
    const status = await new Promise<number>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        const head = [
          "PUT /api/payout-account HTTP/1.1",
          `Host: ${url.host}`,
          `Authorization: Bearer ${key.token}`,
          "Content-Type: application/json",
          `Content-Length: ${Buffer.byteLength(body)}`,
          `User-Agent: ${agent}`,
          "Connection: close",
        ];
        socket.write(Buffer.from(`${head.join("\r\n")}\r\n\r\n${body}`, "utf8"));
      });
      let answer = "";
      socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
      socket.on("end", () => resolve(Number(answer.split(" ")[1])));
      socket.on("error", reject);
    });
    expect(status).toBe(200);
    const [row] = await selectRows<{ user_agent: string }>(
      db,
      sql`select user_agent from security_events
          where merchant_id = ${owner.merchantId} and action = 'payout_account.changed'`,
    );
    expect(row?.user_agent).toBe(agent);
  });
});

describe("dates the database cannot hold", () => {
  const { tokens } = inject("data");
  it.each([
    ["/api/payments?created_to=9999-12-31", "created_to"],
    ["/api/payments?created_from=9999-12-31T23:59:59Z&created_to=9999-12-31T23:59:59.999Z", "created_to"],
    ["/api/balance-transactions?created_to=9999-12-31", "created_to"],
    ["/api/reports/balance-summary?from=9999-12-30&to=9999-12-31", "to"],
  ])("%s is a 422 on %s, never a 500", async (route, field) => {
    const answer = await callApi(baseUrl, route, { token: tokens.api });
    expect(answer.status).toBe(422);
    expect(Object.keys((answer.body as { errors: Record<string, string[]> }).errors)).toEqual([field]);
  });
});

describe("page addresses", () => {
  it("a dashboard address over 8 KiB is answered 414 at once", async () => {
    const answer = await fetch(`${baseUrl}/dashboard/payments?search=${"x".repeat(9000)}`, {
      signal: AbortSignal.timeout(20_000),
    });
    expect(answer.status).toBe(414);
    expect(await answer.text()).toContain("URI Too Long");
  });
});

describe("the security history in the database", () => {
  it("is append-only: UPDATE and DELETE fail, as the app's role, and the row stays", async () => {
    const owner = await newOwner("Ledgerless");
    await createApiToken(db, owner.merchantId, { name: "recorded" }, member(owner.email));
    const where = sql`merchant_id = ${owner.merchantId} and action = 'api_token.created'`;
    /** What the database said (drizzle wraps it in "Failed query: …", with the error as its cause). */
    const refusal = (statement: Promise<unknown>) =>
      statement.then(
        () => "changed",
        (error: Error & { cause?: Error }) => (error.cause ?? error).message,
      );
    expect(await refusal(db.execute(sql`update security_events set actor = 'nobody' where ${where}`))).toBe(
      "security_events is append-only: UPDATE refused",
    );
    expect(await refusal(db.execute(sql`delete from security_events where ${where}`))).toBe(
      "security_events is append-only: DELETE refused",
    );
    const rows = await selectRows<{ actor: string }>(
      db,
      sql`select actor from security_events where ${where}`,
    );
    expect(rows).toEqual([{ actor: owner.email }]);
  });
});

describe("a payout's filter", () => {
  it("takes po_12 as the CLI does, and the same rows as 12", async () => {
    const { tokens } = inject("data");
    // The accountant's last month holds paid payouts (tests/support/seed-accountant.ts).
    const payouts = await callApi(baseUrl, "/api/payouts", { token: tokens.accountant });
    const id = (payouts.body as { data: Array<{ id: number; status: string }> }).data.find(
      (payout) => payout.status === "paid",
    )!.id;
    const plain = await callApi(baseUrl, `/api/balance-transactions?payout_id=${id}`, {
      token: tokens.accountant,
    });
    const prefixed = await callApi(baseUrl, `/api/balance-transactions?payout_id=po_${id}`, {
      token: tokens.accountant,
    });
    expect([plain.status, prefixed.status]).toEqual([200, 200]);
    const data = (answer: { body: unknown }) => (answer.body as { data: unknown[] }).data;
    expect(data(prefixed)).toEqual(data(plain));
    expect((prefixed.body as { data: unknown[] }).data.length).toBeGreaterThan(0);
    const bad = await callApi(baseUrl, "/api/balance-transactions?payout_id=po_x", { token: tokens.api });
    expect(bad.status).toBe(422);
  });
});

describe.runIf(process.env.DATABASE_URL)("the security history's filters", () => {
  it("by person or key, by IP and by days, in the CSV as on the page", async () => {
    const owner = await newOwner("Filters");
    const signedIn = await logInOverHttp(baseUrl, owner.email, "takeover pw 123", {
      "X-Forwarded-For": "203.0.113.81",
    });
    await createApiToken(
      db,
      owner.merchantId,
      { name: "dave-ci", scope: "write" },
      { actor: owner.email, ip: "198.51.100.82", userAgent: null },
    );
    const exported = async (query: string) => {
      const answer = await fetch(`${baseUrl}/dashboard/settings/security-history/export?${query}`, {
        headers: { cookie: signedIn.cookie },
      });
      expect(answer.status).toBe(200);
      return (await answer.text()).trimEnd().split("\n").slice(1);
    };
    expect(await exported("")).toHaveLength(2);
    const byIp = await exported("ip=198.51.100.82");
    expect(byIp).toHaveLength(1);
    expect(byIp[0]).toContain(",api_token.created,");
    expect(await exported(`by=${encodeURIComponent(owner.email.toUpperCase())}`)).toHaveLength(2);
    expect(await exported("by=nobody-at-all")).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await exported(`from=${today}&to=${today}`)).toHaveLength(2);
    expect(await exported("to=2020-01-01")).toEqual([]);
    const page = await fetch(`${baseUrl}/dashboard/settings/security-history?ip=203.0.113.81`, {
      headers: { cookie: signedIn.cookie },
    });
    const html = await page.text();
    expect(html).toContain("Signed in");
    expect(html).not.toContain("198.51.100.82");
  });
});
