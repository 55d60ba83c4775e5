// The second-factor step under attack, through next-auth's real credentials endpoint: an attacker who has the
// password guesses codes, or replays a code they saw. The challenge the password step hands the login form is
// made here with the server's AUTH_SECRET, as the form would carry it.
import { randomInt } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { describe, expect, inject, it } from "vitest";
import { LOGIN_LIMITS } from "@/lib/accounts/login-throttle";
import { createSignInChallenge } from "@/lib/accounts/sign-in-challenge";
import { db } from "../support/direct-db";
import { logInOverHttp } from "../support/http-session";

const baseUrl = inject("baseUrl");
const { guessed, replayed } = inject("data");
void db; // Sets AUTH_SECRET to the server's before the challenge is signed.

const newAddress = () => `198.18.${randomInt(0, 255)}.${randomInt(1, 255)}`;
const codeFor = (secret: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });

type Outcome = "signed in" | "throttled" | "code refused" | "code used" | "two factor" | "refused";
function outcomeOf(location: string): Outcome {
  if (location.includes("code=throttled")) return "throttled";
  if (location.includes("code=code_invalid")) return "code refused";
  if (location.includes("code=code_used")) return "code used";
  if (location.includes("code=two_factor")) return "two factor";
  if (location.includes("error=")) return "refused";
  return "signed in";
}

/** The code step as the login form posts it: the challenge and a code, no password. */
async function codeStep(
  userId: number,
  code: string,
  address: string,
  challenge = createSignInChallenge(userId),
) {
  const result = await logInOverHttp(baseUrl, "", "", { "X-Forwarded-For": address }, { challenge, code });
  return { outcome: outcomeOf(result.location), cookie: result.cookie };
}

describe("the second-factor step", () => {
  it("the password alone signs nobody in", async () => {
    const result = await logInOverHttp(baseUrl, guessed.email, guessed.password, {
      "X-Forwarded-For": newAddress(),
    });
    expect(outcomeOf(result.location)).toBe("two factor");
    const page = await fetch(`${baseUrl}/dashboard`, {
      headers: { cookie: result.cookie },
      redirect: "manual",
    });
    expect(page.status).toBe(307);
  });

  it(`guessing codes is throttled as passwords are: ${LOGIN_LIMITS.perEmailAndIp} wrong codes, then even the right one waits`, async () => {
    const attacker = newAddress();
    const right = codeFor(guessed.totp_secret);
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, "0");
    for (let guess = 0; guess < LOGIN_LIMITS.perEmailAndIp; guess += 1)
      expect((await codeStep(guessed.user_id, wrong, attacker)).outcome).toBe("code refused");
    expect((await codeStep(guessed.user_id, right, attacker)).outcome).toBe("throttled");
    // The password step from that address is throttled too: one count for both steps.
    const password = await logInOverHttp(baseUrl, guessed.email, guessed.password, {
      "X-Forwarded-For": attacker,
    });
    expect(outcomeOf(password.location)).toBe("throttled");
    // The owner, from their own address, still signs in.
    expect((await codeStep(guessed.user_id, right, newAddress())).outcome).toBe("signed in");
  });

  it("a code is accepted once: replayed after a sign-in, or after a failed one, it is refused", async () => {
    const address = newAddress();
    const code = codeFor(replayed.totp_secret);
    // A failed sign-in (a forged challenge) spends nothing: the code is not even checked.
    const forged = `${createSignInChallenge(replayed.user_id)}x`;
    expect((await codeStep(replayed.user_id, code, address, forged)).outcome).toBe("code refused");
    const signedIn = await codeStep(replayed.user_id, code, address);
    expect(signedIn.outcome).toBe("signed in");
    const page = await fetch(`${baseUrl}/dashboard`, {
      headers: { cookie: signedIn.cookie },
      redirect: "manual",
    });
    expect(page.status).toBe(200);
    // Seen over a shoulder and replayed within its 30 seconds, from anywhere: refused, as used (telling so
    // answers only whoever holds a right code, and its step is spent).
    expect((await codeStep(replayed.user_id, code, address)).outcome).toBe("code used");
    expect((await codeStep(replayed.user_id, code, newAddress())).outcome).toBe("code used");
    // An earlier code than the last one used is refused too (the window admits one step back).
    expect((await codeStep(replayed.user_id, codeFor(replayed.totp_secret, -1), address)).outcome).toBe(
      "code used",
    );
  });
});
