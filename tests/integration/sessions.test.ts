// Dashboard sessions end on the server: logout, a password change or reset, and a change of second factor
// end the sessions they should, and a copy of an ended session's cookie opens nothing.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { describe, expect, inject, it } from "vitest";
import { userSessions } from "@/db/schema";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import { changePassword, getMemberStanding, resetPassword } from "@/lib/accounts/members";
import {
  endOtherUserSessions,
  endUserSessionById,
  listUserSessions,
  startUserSession,
  touchUserSession,
} from "@/lib/accounts/sessions";
import {
  confirmTwoFactorEnrolment,
  disableTwoFactor,
  startTwoFactorEnrolment,
} from "@/lib/accounts/two-factor";
import { db } from "../support/direct-db";
import { logInOverHttp } from "../support/http-session";

const baseUrl = inject("baseUrl");
const { seed } = inject("data");
const client = { ip: "192.0.2.10", userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36" };

async function userWithSessions(count: number) {
  const email = `sessions-${randomBytes(5).toString("hex")}@example.test`;
  const account = await createMerchantWithOwner(db, { name: "Sessions", email, password: "long enough pw" });
  const keys: string[] = [];
  for (let index = 0; index < count; index += 1) keys.push(await startUserSession(db, account, client));
  return { ...account, keys };
}

const live = async (account: { userId: number; merchantId: number }, sessionKey: string) =>
  (await getMemberStanding(db, { ...account, sessionKey })) !== null;
const liveKeys = async (account: { userId: number; merchantId: number; keys: string[] }) => {
  const states = await Promise.all(account.keys.map((key) => live(account, key)));
  return account.keys.filter((_, index) => states[index]);
};

describe("what ends a session", () => {
  it("a password change ends every other session; an operator's reset ends all of them", async () => {
    const account = await userWithSessions(3);
    const [here, ...elsewhere] = account.keys;
    await changePassword(
      db,
      account.userId,
      {
        current_password: "long enough pw",
        new_password: "another passphrase",
        confirm_password: "another passphrase",
      },
      here!,
    );
    expect(await liveKeys(account)).toEqual([here]);
    for (const key of elsewhere) expect(await live(account, key)).toBe(false);
    await resetPassword(db, { email: account.email, password: "operator set this" });
    expect(await liveKeys(account)).toEqual([]);
  });

  it("a refused password change ends nothing", async () => {
    const account = await userWithSessions(2);
    await expect(
      changePassword(
        db,
        account.userId,
        {
          current_password: "wrong!!",
          new_password: "another passphrase",
          confirm_password: "another passphrase",
        },
        account.keys[0]!,
      ),
    ).rejects.toThrow();
    expect(await liveKeys(account)).toEqual(account.keys);
  });

  it("turning two-factor sign-in on, then off, ends every other session each time", async () => {
    const account = await userWithSessions(2);
    const { secret } = await startTwoFactorEnrolment(db, account.userId);
    const code = (stepsAhead: number) =>
      new TOTP({ secret: Secret.fromBase32(secret) }).generate({
        timestamp: Date.now() + stepsAhead * 30_000,
      });
    await confirmTwoFactorEnrolment(db, account.userId, code(0), account.keys[0]!);
    expect(await liveKeys(account)).toEqual([account.keys[0]]);
    account.keys.push(await startUserSession(db, account, client));
    await disableTwoFactor(db, account.userId, code(1), account.keys[0]!);
    expect(await liveKeys(account)).toEqual([account.keys[0]]);
  });

  it("lists a user's sessions, this one first, and ends one only for its own user", async () => {
    const account = await userWithSessions(3);
    const intruder = await userWithSessions(1);
    const listed = await listUserSessions(db, account.userId, account.keys[1]!);
    expect(listed).toHaveLength(3);
    expect(listed[0]).toMatchObject({ current: true, ip: client.ip, userAgent: client.userAgent });
    expect(listed.slice(1).every((session) => !session.current)).toBe(true);
    // Another merchant's user cannot end it by id.
    expect(await endUserSessionById(db, intruder.userId, listed[1]!.id)).toBe(false);
    expect(await liveKeys(account)).toHaveLength(3);
    expect(await endUserSessionById(db, account.userId, listed[1]!.id)).toBe(true);
    expect(await liveKeys(account)).toHaveLength(2);
    expect(await endOtherUserSessions(db, account.userId, account.keys[1]!)).toBe(1);
    expect(await liveKeys(account)).toEqual([account.keys[1]]);
    expect(await liveKeys(intruder)).toEqual(intruder.keys);
  });

  it("records a use at most once a minute, with the address it came from", async () => {
    const account = await userWithSessions(1);
    const key = account.keys[0]!;
    const read = async () =>
      (await db.select().from(userSessions).where(eq(userSessions.sessionKey, key)))[0]!;
    const first = await read();
    await touchUserSession(db, key, first.lastUsedAt, { ip: "198.51.100.1", userAgent: null });
    expect((await read()).ip).toBe(client.ip);
    const aMinuteAgo = new Date(Date.now() - 61_000);
    await touchUserSession(db, key, aMinuteAgo, { ip: "198.51.100.1", userAgent: null });
    expect((await read()).ip).toBe("198.51.100.1");
  });
});

describe("over HTTP", () => {
  const page = (cookie: string) =>
    fetch(`${baseUrl}/dashboard/payments`, { headers: { cookie }, redirect: "manual" });

  it("after logout, a copy of the session cookie opens no page", async () => {
    const login = await logInOverHttp(baseUrl, seed.email, seed.password, {
      "X-Forwarded-For": "192.0.2.80",
    });
    expect(login.location).toMatch(/\/dashboard$/);
    const copied = login.cookie;
    expect((await page(copied)).status).toBe(200);

    const csrf = (await (
      await fetch(`${baseUrl}/api/auth/csrf`, { headers: { cookie: copied } })
    ).json()) as {
      csrfToken: string;
    };
    const logout = await fetch(`${baseUrl}/api/auth/signout`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: copied, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: csrf.csrfToken, callbackUrl: "/login" }),
    });
    expect(logout.status).toBe(302);

    const replayed = await page(copied);
    expect(replayed.status).toBe(307);
    expect(replayed.headers.get("location")).toContain("/login");
  });
});
