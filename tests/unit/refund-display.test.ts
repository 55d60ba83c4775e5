import { describe, expect, it } from "vitest";
import { metadataEntries } from "@/lib/payments/metadata";
import { refundMark } from "@/lib/refunds/refund-mark";

describe("refundMark", () => {
  it("marks nothing, part or all of a payment refunded, comparing cents exactly", () => {
    expect(refundMark("10.00", "0.00")).toBeNull();
    expect(refundMark("10.00", "0.01")).toBe("partially_refunded");
    expect(refundMark("10.00", "9.99")).toBe("partially_refunded");
    expect(refundMark("10.00", "10.00")).toBe("refunded");
    // Floats would call 0.1 + 0.2 more than 0.3; cents do not.
    expect(refundMark("0.30", "0.30")).toBe("refunded");
    expect(refundMark("99999999999.99", "99999999999.98")).toBe("partially_refunded");
  });
});

describe("metadataEntries", () => {
  it("shows a JSON object's keys and values, nested values as compact JSON", () => {
    expect(metadataEntries('{"customer_id":"cus_1","items":[1,2],"gift":true}')).toEqual([
      ["customer_id", "cus_1"],
      ["items", "[1,2]"],
      ["gift", "true"],
    ]);
  });

  it("is null for none, and keeps text that is not an object as one value", () => {
    expect(metadataEntries(null)).toBeNull();
    expect(metadataEntries("null")).toBeNull();
    expect(metadataEntries("{}")).toBeNull();
    expect(metadataEntries("not json")).toEqual([["value", "not json"]]);
    expect(metadataEntries("[1]")).toEqual([["value", "[1]"]]);
  });
});
