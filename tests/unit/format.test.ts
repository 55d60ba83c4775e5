import { describe, expect, it } from "vitest";
import { formatMoney } from "@/components/format";

describe("formatMoney", () => {
  it.each([
    ["0.00", "0.00"],
    ["12.5", "12.50"],
    ["1250.00", "1,250.00"],
    ["1000000", "1,000,000.00"],
    ["999999999999.99", "999,999,999,999.99"],
    ["007.1", "7.10"],
    ["-1234.5", "-1,234.50"],
  ])("%s reads %s", (input, expected) => {
    expect(formatMoney(input)).toBe(expected);
  });
});

describe("formatMoney with a display currency", () => {
  it("prints the ISO code after the figure", () => {
    expect(formatMoney("1250", "EUR")).toBe("1,250.00 EUR");
  });
  it("prints the bare figure when none is set", () => {
    expect(formatMoney("1250", null)).toBe("1,250.00");
  });
});
