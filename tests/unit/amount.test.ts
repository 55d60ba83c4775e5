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
    ["1000000000000", "JPY", "The amount field must not be greater than 999999999999.99."],
  ])("%s %s is refused: %s", (sent, currency, message) => {
    expect(amountRefusal(numeral(sent), currency)).toBe(message);
  });

  it("writes stored digits out without ever rounding them away", () => {
    expect(withDecimals("1500.00", 0)).toBe("1500");
    expect(withDecimals("1500.50", 0)).toBe("1500.50");
    expect(withDecimals("0", 2)).toBe("0.00");
    expect(withDecimals("-3.5", 2)).toBe("-3.50");
  });
});

describe("a stored currency outside the list", () => {
  it("reads with two decimals rather than failing (a display currency from before, such as HRK)", () => {
    expect(inMinorUnits("12.5", "HRK")).toBe("12.50");
  });
});
