import { describe, expect, it } from "vitest";
import { amountField, amountRefusal, inMinorUnits, withDecimals } from "@/lib/money/amount";

const numeral = (sent: unknown) => amountField({ positive: false }).parse(sent);

describe("an amount in its currency's minor units", () => {
  it.each([
    ["1500", "JPY", "1500"],
    ["1.25", "KWD", "1.250"],
    ["12.5", "EUR", "12.50"],
    ["007.5", "EUR", "7.50"],
    [".5", "EUR", "0.50"],
    ["999999999999.99", "USD", "999999999999.99"],
  ])("%s %s is %s", (sent, currency, out) => {
    expect(amountRefusal(numeral(sent), currency)).toBeNull();
    expect(inMinorUnits(numeral(sent), currency)).toBe(out);
  });

  it.each([
    ["1500.5", "JPY", "The amount field must have at most 0 decimal places."],
    ["1.2345", "KWD", "The amount field must have at most 3 decimal places."],
    ["12.500", "EUR", "The amount field must have at most 2 decimal places."],
    ["1000000000000", "JPY", "The amount field must not be greater than 999999999999."],
  ])("%s %s is refused: %s", (sent, currency, message) => {
    expect(amountRefusal(numeral(sent), currency)).toBe(message);
  });

  it("writes stored digits out without ever rounding them away", () => {
    expect(withDecimals("1500.00", 0)).toBe("1500");
    expect(withDecimals("1500.50", 0)).toBe("1500.50");
    expect(withDecimals("0", 2)).toBe("0.00");
    expect(withDecimals("-3.5", 2)).toBe("-3.50");
    expect(withDecimals("007.25", 2)).toBe("7.25");
    expect(withDecimals("0.25", 2)).toBe("0.25");
    expect(withDecimals("1500", 2)).toBe("1500.00");
    expect(withDecimals("12.50", 3)).toBe("12.500");
    expect(withDecimals(".5", 2)).toBe("0.50");
  });

  it("returns a numeral already written as it is, and writes every other one", () => {
    for (const numeral of ["12.50", "0.05", "1500", "0", "10.5", "-1.00", "00.10", "1.234", "100.000"])
      for (const places of [0, 2, 3]) {
        const [whole = "", fraction = ""] = numeral.replace("-", "").split(".");
        const kept = fraction.replace(/0+$/, "");
        const written = `${numeral.startsWith("-") ? "-" : ""}${whole.replace(/^0+(?=\d)/, "") || "0"}`;
        const digits = kept.length > places ? fraction : fraction.padEnd(places, "0").slice(0, places);
        expect(withDecimals(numeral, places)).toBe(digits ? `${written}.${digits}` : written);
      }
  });
});

describe("a stored currency outside the list", () => {
  it("reads with two decimals rather than failing (a display currency from before, such as HRK)", () => {
    expect(inMinorUnits("12.5", "HRK")).toBe("12.50");
  });
});
