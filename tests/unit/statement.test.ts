import { describe, expect, it } from "vitest";
import { dialect, Statement } from "@/db/statement";
import { listPageStatement } from "@/lib/payments/queries";
import { authenticationStatement } from "@/lib/tokens/authenticate";

// A compiled statement must send exactly what drizzle would have built for the same values: the same text,
// the same parameters in the same order, constants included.
describe("Statement", () => {
  it.each([
    ["the list's first page", listPageStatement(0), { merchantId: 7, offset: 0, perPage: 25 }],
    ["the list's later pages", listPageStatement(40), { merchantId: 7, offset: 40, perPage: 25 }],
    ["authentication", authenticationStatement, { tokenHash: "ab".repeat(32), defaultPerMinute: 60 }],
  ] as const)("%s: the text and parameters drizzle builds", (_name, statement, values) => {
    const built = dialect.sqlToQuery((statement as Statement<typeof values>).query(values));
    expect((statement as Statement<typeof values>).text).toBe(built.sql);
    expect((statement as Statement<typeof values>).bind(values)).toEqual(built.params);
  });

  it("binds each call's own values, in the order the text numbers them", () => {
    const statement = listPageStatement(990);
    const first = statement.bind({ merchantId: 1, offset: 0, perPage: 10 });
    const second = statement.bind({ merchantId: 2, offset: 990, perPage: 100 });
    expect(first).toEqual([1, 0, 10]);
    expect(second).toEqual([2, 990, 100]);
  });
});
