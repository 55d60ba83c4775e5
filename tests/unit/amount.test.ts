import { expect, test } from "vitest";
import { amountField, amountIn, withDecimals } from "@/lib/money/amount";
test("x", () => {
  const f = amountField({ positive: false });
  expect(f.parse("1500")).toBe("1500");
  expect(amountIn(f.parse("1500"), "JPY")).toBe("1500");
  expect(amountIn(f.parse("1.25"), "KWD")).toBe("1.250");
  expect(amountIn(f.parse("12.5"), "EUR")).toBe("12.50");
  expect(amountIn(f.parse("007.5"), "EUR")).toBe("7.50");
  expect(amountIn(f.parse(".5"), "EUR")).toBe("0.50");
  expect(() => amountIn(f.parse("1500.5"), "JPY")).toThrow();
  expect(() => amountIn(f.parse("1000000000000"), "JPY")).toThrow();
  expect(amountIn(f.parse("999999999999.99"), "USD")).toBe("999999999999.99");
  expect(withDecimals("1500.00", 0)).toBe("1500");
  expect(withDecimals("1500.50", 0)).toBe("1500.50");
  expect(withDecimals("0", 2)).toBe("0.00");
  expect(withDecimals("-3.5", 2)).toBe("-3.50");
});
