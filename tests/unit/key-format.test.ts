import { describe, expect, it } from "vitest";
import { generateToken, isWellFormedToken, tokenDisplayHint } from "@/lib/tokens/format";

// Keys say their environment (DESIGN.md, "API tokens"): pay_live_, pay_test_, pay_acct_, and keys made before
// environments, pay_ alone; each with its CRC32, so a typo never reaches the database.
describe("API key format", () => {
  it.each([
    ["live", /^pay_live_[0-9A-Za-z]{49}$/],
    ["sandbox", /^pay_test_[0-9A-Za-z]{49}$/],
    ["account", /^pay_acct_[0-9A-Za-z]{49}$/],
  ] as const)("a %s key has its prefix, and is well formed", (kind, shape) => {
    const key = generateToken(kind);
    expect(key).toMatch(shape);
    expect(isWellFormedToken(key)).toBe(true);
    expect(tokenDisplayHint(key)).toBe(`${key.slice(0, 9)}…${key.slice(-4)}`);
  });

  it("still takes a key made before environments (pay_ alone), and shows it as before", () => {
    const key = `pay_${generateToken("sandbox").slice("pay_test_".length)}`;
    expect(isWellFormedToken(key)).toBe(true);
    expect(tokenDisplayHint(key)).toBe(`pay_…${key.slice(-4)}`);
  });

  it("refuses a typo, an unknown environment and a moved prefix without a lookup", () => {
    const key = generateToken("live");
    const typo = key.slice(0, -1) + (key.endsWith("a") ? "b" : "a");
    for (const bad of [
      typo,
      key.replace("pay_live_", "pay_prod_"),
      key.replace("pay_live_", "pay_test_live_"),
      "",
    ])
      expect(isWellFormedToken(bad), bad).toBe(false);
  });
});
