import { randomInt } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { signUpMerchant } from "@/lib/accounts/accounts";
import { LOGIN_LIMITS, SIGNUPS_PER_IP_PER_HOUR } from "@/lib/accounts/login-throttle";
import { DomainError } from "@/lib/platform/errors";
import { db } from "../support/direct-db";
import { logInOverHttp } from "../support/http-session";
import { uniqueEmail } from "../support/test-server";

const baseUrl = inject("baseUrl");
// The flaky merchant's login is used by no other test: this file may throttle it.
const { seed, flaky } = inject("data");

/** A fresh client address for each test (the suite's server trusts one proxy hop, as behind a load balancer). */
const newAddress = () => `198.51.${randomInt(0, 255)}.${randomInt(1, 255)}`;
const from = (address: string) => ({ "X-Forwarded-For": address });
const outcome = (location: string) =>
  location.includes("code=throttled") ? "throttled" : location.includes("code=invalid") ? "invalid" : "ok";

describe("login throttling", () => {
  it("20 concurrent wrong guesses for one email: only the limit's worth are evaluated", async () => {
    const email = uniqueEmail("race");
    const address = newAddress();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => logInOverHttp(baseUrl, email, "wrong password", from(address))),
    );
    const outcomes = results.map((result) => outcome(result.location));
    expect(outcomes.filter((entry) => entry === "invalid")).toHaveLength(LOGIN_LIMITS.perEmailAndIp);
    expect(outcomes.filter((entry) => entry === "throttled")).toHaveLength(20 - LOGIN_LIMITS.perEmailAndIp);
  });

  it("40 concurrent guesses from one address at many emails: at most the per-address limit evaluated", async () => {
    const address = newAddress();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        logInOverHttp(baseUrl, uniqueEmail(`spray${index}`), "wrong password", from(address)),
      ),
    );
    const evaluated = results.filter((result) => outcome(result.location) === "invalid");
    expect(evaluated).toHaveLength(LOGIN_LIMITS.perIp);
  });

  it("a forged X-Forwarded-For hop does not make a new client", async () => {
    const address = newAddress();
    const email = uniqueEmail("forged");
    for (let attempt = 0; attempt < LOGIN_LIMITS.perEmailAndIp; attempt++)
      await logInOverHttp(baseUrl, email, "wrong password", from(`10.9.9.${attempt}, ${address}`));
    // Only the hop the trusted proxy added counts: a new forged hop is still the same client.
    const forged = await logInOverHttp(baseUrl, email, "wrong password", from(`10.9.9.99, ${address}`));
    expect(outcome(forged.location)).toBe("throttled");
    // next-auth's redirect is on APP_URL's origin (a loopback one here), never Next.js's localhost.
    expect(forged.location.startsWith(`${baseUrl}/login?`)).toBe(true);
  });

  it("wrong passwords from one address do not lock the owner out from another", async () => {
    const attacker = newAddress();
    for (let attempt = 0; attempt < LOGIN_LIMITS.perEmailAndIp; attempt++)
      await logInOverHttp(baseUrl, seed.email, "wrong password", from(attacker));
    expect(outcome((await logInOverHttp(baseUrl, seed.email, seed.password, from(attacker))).location)).toBe(
      "throttled",
    );
    const owner = await logInOverHttp(baseUrl, seed.email, seed.password, from(newAddress()));
    expect(new URL(owner.location).pathname).toBe("/dashboard");
  });

  it("past the per-email ceiling, only addresses the account signed in from are heard", async () => {
    const { email, password } = flaky;
    const home = newAddress();
    expect(outcome((await logInOverHttp(baseUrl, email, password, from(home))).location)).toBe("ok");
    // A spray from many addresses, each under its own limit, reaching the ceiling together.
    const perAddress = LOGIN_LIMITS.perEmailAndIp - 1;
    const addresses = Math.ceil(LOGIN_LIMITS.perEmail / perAddress);
    for (let index = 0; index < addresses; index++) {
      const address = newAddress();
      await Promise.all(
        Array.from({ length: perAddress }, () =>
          logInOverHttp(baseUrl, email, "wrong password", from(address)),
        ),
      );
    }
    const stranger = await logInOverHttp(baseUrl, email, password, from(newAddress()));
    expect(outcome(stranger.location)).toBe("throttled");
    const owner = await logInOverHttp(baseUrl, email, password, from(home));
    expect(outcome(owner.location)).toBe("ok");
  });
});

describe("sign-up throttling", () => {
  it(`refuses the ${SIGNUPS_PER_IP_PER_HOUR + 1}th sign-up from one address within the hour, and creates nothing`, async () => {
    const address = newAddress();
    for (let index = 0; index < SIGNUPS_PER_IP_PER_HOUR; index++)
      await signUpMerchant(
        db,
        { name: "Many", email: uniqueEmail("many"), password: "long enough pw" },
        address,
      );
    const email = uniqueEmail("one-too-many");
    const refused = signUpMerchant(db, { name: "Many", email, password: "long enough pw" }, address);
    await expect(refused).rejects.toSatisfy(
      (error) => error instanceof DomainError && error.kind === "throttled",
    );
    // Another address is not affected, and invalid input is refused before it counts.
    await expect(
      signUpMerchant(db, { name: "", email: "not an email", password: "x" }, address),
    ).rejects.toSatisfy((error) => error instanceof DomainError && error.kind === "validation");
    await signUpMerchant(
      db,
      { name: "Other", email: uniqueEmail("other"), password: "long enough pw" },
      newAddress(),
    );
  });
});
