// The All transactions CSV's file name says what it holds (issue 69): the period as the Reports page writes it
// (the first day, and the day after the last), the currency and the other filters.
import { describe, expect, it } from "vitest";
import { readTransactionFilters, transactionsCsvName } from "@/lib/ledger/transaction-filters";

const nameOf = (query: Record<string, string>) => transactionsCsvName(readTransactionFilters(query).filters);

describe("transactionsCsvName", () => {
  it("names the period, the currency and the filter", () => {
    expect(nameOf({ from: "2026-11-01", to: "2026-11-30", currency: "eur" })).toBe(
      "balance-transactions-2026-11-01_2026-12-01-eur.csv",
    );
    expect(nameOf({ from: "2026-12-31", to: "2026-12-31", type: "payout_failure" })).toBe(
      "balance-transactions-2026-12-31_2027-01-01-payout-failure.csv",
    );
    expect(nameOf({ from: "2026-11-01" })).toBe("balance-transactions-2026-11-01_onwards.csv");
    expect(nameOf({ to: "2026-02-28", payout: "po_12" })).toBe(
      "balance-transactions-until_2026-03-01-payout-12.csv",
    );
    expect(nameOf({})).toBe("balance-transactions-all.csv");
  });

  it("names nothing a bad filter did not set", () => {
    expect(nameOf({ currency: "euro", type: "bogus", from: "2026-02-30" })).toBe(
      "balance-transactions-all.csv",
    );
  });
});
