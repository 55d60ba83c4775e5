import { describe, expect, inject, it } from "vitest";
import { callApi, paymentTotal } from "../support/api-client";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const invalid = (message: string) => ({
  message: "The given data was invalid.",
  errors: { amount: [message] },
});

describe("amounts written with an exponent follow the digits rule", () => {
  it.each([
    ["1e-400", invalid("The amount field must have 0-2 decimal places.")],
    ["1e-3", invalid("The amount field must have 0-2 decimal places.")],
    ["-1e-400", invalid("The amount field must be at least 0.")],
    ["1e400", invalid("The amount field must not be greater than 999999999999.99.")],
    ['"1e-400"', invalid("The amount field must be a number.")],
  ])("%s: 422, nothing written", async (amount, expected) => {
    const before = await paymentTotal(baseUrl, tokens.badInput);
    const response = await callApi(baseUrl, "/api/payments", {
      token: tokens.badInput,
      raw: `{"amount": ${amount}}`,
    });
    expect([response.status, response.body]).toEqual([422, expected]);
    expect(await paymentTotal(baseUrl, tokens.badInput)).toBe(before);
  });

  it.each([
    ["1.5e-1", "0.15"],
    ["125e-2", "1.25"],
    ["1E2", "100.00"],
    ["0e999999999", "0.00"],
  ])("%s: 201, stored as %s", async (amount, stored) => {
    const response = await callApi(baseUrl, "/api/payments", {
      token: tokens.badInput,
      raw: `{"amount": ${amount}}`,
    });
    expect(response.status).toBe(201);
    const payment = await callApi(baseUrl, response.headers.get("location")!, { token: tokens.badInput });
    expect((payment.body as { data: { amount: string } }).data.amount).toBe(stored);
  });
});
