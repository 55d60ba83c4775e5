import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { selectRows, type Executor } from "@/db/client";
import { merchants, users } from "@/db/schema";
import { decryptSecret, encryptSecret } from "@/lib/platform/encryption";
import { DomainError, validationError } from "@/lib/platform/errors";
import { recordSecurityEvent, type SecurityActor } from "@/lib/security/history";
import { endOtherUserSessions } from "./sessions";

/**
 * Two-factor sign-in with TOTP (RFC 6238: SHA-1, 6 digits, 30 s, the defaults every authenticator app
 * reads), plus ten single-use recovery codes. The secret is stored encrypted; recovery codes as SHA-256
 * hashes (they are random, so a fast hash suffices); a code's time step is remembered so it works once.
 */
const ISSUER = "Payments Platform";
export const RECOVERY_CODE_COUNT = 10;

function totpFor(secret: string, email: string): TOTP {
  return new TOTP({ issuer: ISSUER, label: email, secret: Secret.fromBase32(secret) });
}

const hashRecoveryCode = (code: string) =>
  createHash("sha256").update(code.replace(/[\s-]/g, "").toLowerCase()).digest("hex");

/** `abcde-12345`: 50 bits from a 32-letter alphabet without look-alikes. */
function newRecoveryCode(): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  const chars = [...randomBytes(10)].map((byte) => alphabet[byte % alphabet.length]);
  return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
}

export type Enrolment = { secret: string; uri: string; qrSvg: string };

/** The secret to enrol, shown as a QR code rendered here (no image is fetched) and as text to type in. */
export async function startTwoFactorEnrolment(db: Executor, userId: number): Promise<Enrolment> {
  const [user] = await db
    .select({ email: users.email, pending: users.totpPendingCiphertext, enabled: users.totpSecretCiphertext })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new DomainError("not_found", "User not found.");
  if (user.enabled) throw new DomainError("conflict", "Two-factor sign-in is already on.");
  // Reloading the page shows the same secret, so an app that already scanned it keeps working.
  let secret = user.pending ? decryptSecret(user.pending) : undefined;
  if (!secret) {
    secret = new Secret({ size: 20 }).base32;
    await db
      .update(users)
      .set({ totpPendingCiphertext: encryptSecret(secret) })
      .where(eq(users.id, userId));
  }
  const uri = totpFor(secret, user.email).toString();
  return { secret, uri, qrSvg: await QRCode.toString(uri, { type: "svg", margin: 1 }) };
}

/**
 * How a code was taken: accepted, or "used" (right for the current or previous 30-second step, but that step
 * or a later one has signed in already: replay protection, so the user waits for the next code), or invalid.
 * Only a right code can be told "used", and its step is spent: a guesser learns nothing they could use.
 */
export type CodeCheck = "accepted" | "used" | "invalid";

/** Accepts a TOTP code once: the step it matched must be later than the last one used. */
async function acceptTotp(
  db: Executor,
  userId: number,
  secret: string,
  email: string,
  code: string,
): Promise<CodeCheck> {
  const delta = totpFor(secret, email).validate({ token: code, window: 1 });
  if (delta === null) return "invalid";
  const step = TOTP.counter() + delta;
  const rows = await selectRows(
    db,
    sql`update users set totp_last_step = ${step}
        where id = ${userId} and (totp_last_step is null or totp_last_step < ${step}) returning 1`,
  );
  return rows.length === 1 ? "accepted" : "used";
}

export const codeError = (check: CodeCheck = "invalid") =>
  validationError({
    code: [
      check === "used"
        ? "That code was already used: wait for the next code in your app."
        : "The code is not valid. Enter the current 6-digit code.",
    ],
  });

/**
 * Confirms enrolment with a code from the app; returns the recovery codes, shown once. Every other session
 * ends: sessions signed in with the password alone do not outlive the second factor.
 */
export async function confirmTwoFactorEnrolment(
  db: Executor,
  userId: number,
  code: string,
  keepSessionKey: string,
  by?: SecurityActor,
): Promise<string[]> {
  const [user] = await db
    .select({ email: users.email, merchantId: users.merchantId, pending: users.totpPendingCiphertext })
    .from(users)
    .where(eq(users.id, userId));
  if (!user?.pending) throw new DomainError("conflict", "Start the set-up again: no enrolment is under way.");
  const secret = decryptSecret(user.pending);
  const check = /^\d{6}$/.test(code.trim())
    ? await acceptTotp(db, userId, secret, user.email, code.trim())
    : "invalid";
  if (check !== "accepted") throw codeError(check);
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({
        totpSecretCiphertext: user.pending,
        totpPendingCiphertext: null,
        recoveryCodeHashes: recoveryCodes.map(hashRecoveryCode),
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId));
    await endOtherUserSessions(tx, userId, keepSessionKey);
    if (by) await recordSecurityEvent(tx, user.merchantId, by, "user.two_factor_enabled", user.email);
  });
  return recoveryCodes;
}

/**
 * Checks a second factor: a current TOTP code, or an unused recovery code (consumed). A TOTP code already
 * used is "used"; a recovery code once used is gone, so it is "invalid" like any other wrong code.
 */
export async function verifySecondFactor(db: Executor, userId: number, code: string): Promise<CodeCheck> {
  const trimmed = code.trim();
  const [user] = await db
    .select({ email: users.email, secret: users.totpSecretCiphertext })
    .from(users)
    .where(eq(users.id, userId));
  if (!user?.secret) return "invalid";
  if (/^\d{6}$/.test(trimmed)) return acceptTotp(db, userId, decryptSecret(user.secret), user.email, trimmed);
  if (trimmed.length > 32) return "invalid";
  const hash = hashRecoveryCode(trimmed);
  const rows = await selectRows(
    db,
    sql`update users set recovery_code_hashes = array_remove(recovery_code_hashes, ${hash})
        where id = ${userId} and ${hash} = any(recovery_code_hashes) returning 1`,
  );
  return rows.length === 1 ? "accepted" : "invalid";
}

export type TwoFactorStatus = { enabled: boolean; recoveryCodesLeft: number; requiredByTeam: boolean };

export async function getTwoFactorStatus(db: Executor, userId: number): Promise<TwoFactorStatus> {
  const [row] = await db
    .select({
      secret: users.totpSecretCiphertext,
      codes: users.recoveryCodeHashes,
      required: merchants.requireTwoFactor,
    })
    .from(users)
    .innerJoin(merchants, eq(merchants.id, users.merchantId))
    .where(eq(users.id, userId));
  if (!row) throw new DomainError("not_found", "User not found.");
  return { enabled: Boolean(row.secret), recoveryCodesLeft: row.codes.length, requiredByTeam: row.required };
}

/**
 * Turns two-factor sign-in off, with a current code (or a recovery code); not while the team requires it.
 * Every other session ends, as at any change of how the user signs in.
 */
export async function disableTwoFactor(
  db: Executor,
  userId: number,
  code: string,
  keepSessionKey: string,
  by?: SecurityActor,
): Promise<void> {
  const status = await getTwoFactorStatus(db, userId);
  if (!status.enabled) return;
  if (status.requiredByTeam)
    throw new DomainError("forbidden", "Your team requires two-factor sign-in, so it cannot be turned off.");
  const check = await verifySecondFactor(db, userId, code);
  if (check !== "accepted") throw codeError(check);
  await db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ totpSecretCiphertext: null, totpLastStep: null, recoveryCodeHashes: [], updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning({ email: users.email, merchantId: users.merchantId });
    await endOtherUserSessions(tx, userId, keepSessionKey);
    if (by && user)
      await recordSecurityEvent(tx, user.merchantId, by, "user.two_factor_disabled", user.email);
  });
}

/** An owner requires (or stops requiring) a second factor of every member; they must have one themselves. */
export async function setTwoFactorRequired(
  db: Executor,
  merchantId: number,
  ownerUserId: number,
  required: boolean,
): Promise<void> {
  if (required && !(await getTwoFactorStatus(db, ownerUserId)).enabled)
    throw new DomainError("conflict", "Turn on two-factor sign-in for yourself first.");
  await db
    .update(merchants)
    .set({ requireTwoFactor: required, updatedAt: new Date() })
    .where(and(eq(merchants.id, merchantId)));
}
