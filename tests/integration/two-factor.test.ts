import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import { changePassword, getMemberStanding, resetPassword } from "@/lib/accounts/members";
import { startUserSession } from "@/lib/accounts/sessions";
import { authenticateMerchantUser, CodeAlreadyUsed, completeSecondFactor } from "@/lib/accounts/sign-in";
import {
  confirmTwoFactorEnrolment,
  disableTwoFactor,
  setTwoFactorRequired,
  startTwoFactorEnrolment,
  verifySecondFactor,
} from "@/lib/accounts/two-factor";
import { DomainError } from "@/lib/platform/errors";
import { db } from "../support/direct-db";

const codeFor = (key: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(key) }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });
const address = () => `192.0.2.${1 + (randomBytes(1)[0]! % 250)}`;
const kind = (error: unknown) => (error instanceof DomainError ? error.kind : String(error));

async function owner() {
  const email = `tfa-${randomBytes(5).toString("hex")}@example.test`;
  const account = await createMerchantWithOwner(db, { name: "TFA", email, password: "long enough pw" });
  const sessionKey = await startUserSession(db, account, { ip: address(), userAgent: null });
  return { ...account, password: "long enough pw", sessionKey };
}

describe("two-factor sign-in", () => {
  it("stores the secret encrypted, asks for a code after the password, and accepts each code once", async () => {
    const account = await owner();
    const { secret, uri, qrSvg } = await startTwoFactorEnrolment(db, account.userId);
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(qrSvg).toContain("<svg");
    // The same secret on a second look (an app that already scanned it keeps working).
    expect((await startTwoFactorEnrolment(db, account.userId)).secret).toBe(secret);
    await expect(confirmTwoFactorEnrolment(db, account.userId, "123", account.sessionKey)).rejects.toSatisfy(
      (error) => kind(error) === "validation",
    );
    const recoveryCodes = await confirmTwoFactorEnrolment(
      db,
      account.userId,
      codeFor(secret),
      account.sessionKey,
    );
    expect(recoveryCodes).toHaveLength(10);
    const [row] = await db.select().from(users).where(eq(users.id, account.userId));
    expect(row!.totpSecretCiphertext).toMatch(/^v2\./);
    expect(row!.totpSecretCiphertext).not.toContain(secret);
    expect(row!.recoveryCodeHashes).toHaveLength(10);
    expect(row!.recoveryCodeHashes.join()).not.toContain(recoveryCodes[0]!.replace("-", ""));

    const ip = address();
    const step = await authenticateMerchantUser(db, { email: account.email, password: account.password }, ip);
    expect("challenge" in step).toBe(true);
    const challenge = (step as { challenge: string }).challenge;
    // A forged challenge, a wrong code, then the right one; the same code again is refused.
    await expect(
      completeSecondFactor(db, { challenge: `${challenge}x`, code: codeFor(secret, 1) }, ip),
    ).rejects.toSatisfy((error) => kind(error) === "unauthenticated");
    await expect(completeSecondFactor(db, { challenge, code: "000000" }, ip)).rejects.toSatisfy(
      (error) => kind(error) === "unauthenticated",
    );
    expect((await completeSecondFactor(db, { challenge, code: codeFor(secret, 1) }, ip)).userId).toBe(
      account.userId,
    );
    // The same code again is "used" (its step signed in), not wrong: the login form says to wait for the next.
    expect(await verifySecondFactor(db, account.userId, codeFor(secret, 1))).toBe("used");
    await expect(
      completeSecondFactor(db, { challenge, code: codeFor(secret, 1) }, ip),
    ).rejects.toBeInstanceOf(CodeAlreadyUsed);
    // Recovery codes: once each, in any case and with or without the dash.
    expect(
      await verifySecondFactor(db, account.userId, recoveryCodes[0]!.toUpperCase().replace("-", "")),
    ).toBe("accepted");
    expect(await verifySecondFactor(db, account.userId, recoveryCodes[0]!)).toBe("invalid");
  });

  it("an owner requires it: members without one must enrol, and it cannot be turned off", async () => {
    const account = await owner();
    await expect(setTwoFactorRequired(db, account.merchantId, account.userId, true)).rejects.toSatisfy(
      (error) => kind(error) === "conflict",
    );
    expect(await getMemberStanding(db, account)).toMatchObject({
      role: "owner",
      mustEnrolSecondFactor: false,
    });
    const { secret } = await startTwoFactorEnrolment(db, account.userId);
    const [recovery] = await confirmTwoFactorEnrolment(
      db,
      account.userId,
      codeFor(secret),
      account.sessionKey,
    );
    await setTwoFactorRequired(db, account.merchantId, account.userId, true);
    await expect(disableTwoFactor(db, account.userId, recovery!, account.sessionKey)).rejects.toSatisfy(
      (error) => kind(error) === "forbidden",
    );
    // A user of the merchant without a second factor (as a member will be) is sent to enrol.
    await db.update(users).set({ totpSecretCiphertext: null }).where(eq(users.id, account.userId));
    expect((await getMemberStanding(db, account))!.mustEnrolSecondFactor).toBe(true);
    // Another merchant's id never matches the user.
    expect(
      await getMemberStanding(db, { ...account, merchantId: account.merchantId + 1_000_000 }),
    ).toBeNull();
  });

  it("changes a password only with the current one; an operator resets one by email", async () => {
    const account = await owner();
    const change = (input: Record<string, string>) =>
      changePassword(db, account.userId, input, account.sessionKey);
    await expect(
      change({
        current_password: "wrong one!!",
        new_password: "a new passphrase",
        confirm_password: "a new passphrase",
      }),
    ).rejects.toSatisfy(
      (error) => error instanceof DomainError && Boolean(error.fieldErrors?.current_password),
    );
    await expect(
      change({
        current_password: account.password,
        new_password: "a new passphrase",
        confirm_password: "different",
      }),
    ).rejects.toSatisfy(
      (error) => error instanceof DomainError && Boolean(error.fieldErrors?.confirm_password),
    );
    await change({
      current_password: account.password,
      new_password: "a new passphrase",
      confirm_password: "a new passphrase",
    });
    const signIn = (password: string) =>
      authenticateMerchantUser(db, { email: account.email, password }, address());
    await expect(signIn(account.password)).rejects.toSatisfy((error) => kind(error) === "unauthenticated");
    expect("account" in (await signIn("a new passphrase"))).toBe(true);
    expect(
      await resetPassword(db, { email: account.email.toUpperCase(), password: "operator set this" }),
    ).toEqual({
      user_id: account.userId,
      email: account.email,
    });
    expect("account" in (await signIn("operator set this"))).toBe(true);
    await expect(
      resetPassword(db, { email: "nobody@example.test", password: "operator set this" }),
    ).rejects.toSatisfy((error) => kind(error) === "not_found");
  });
});
