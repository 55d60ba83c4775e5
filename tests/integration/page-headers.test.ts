// Every page says nosniff, and the dashboard's and login's pages refuse to be framed (clickjacking). The
// payer's pages keep their own policy (next.config.mjs); /api keeps its JSON headers.
import { describe, expect, inject, it } from "vitest";
import { paymentWithCheckout } from "../support/checkout-client";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");

const headersOf = async (path: string) => {
  const response = await fetch(`${baseUrl}${path}`, { redirect: "manual" });
  return { status: response.status, headers: response.headers };
};

describe("page headers", () => {
  it.each([
    ["/login", 200],
    ["/signup", 200],
    ["/dashboard", 307],
    ["/dashboard/payments", 307],
    ["/", 307],
    ["/no-such-page", 404],
    ["/dashboard/no-such-page", 307],
  ])("%s (%i): nosniff, and never framed", async (path, status) => {
    const { status: actual, headers } = await headersOf(path);
    expect(actual).toBe(status);
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("x-frame-options")).toBe("DENY");
    expect(headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
  });

  it("a payer's page: nosniff beside its own policy", async () => {
    const { checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
    const { status, headers } = await headersOf(new URL(checkoutUrl).pathname);
    expect(status).toBe(200);
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("an API answer keeps its JSON headers", async () => {
    const response = await fetch(`${baseUrl}/api/payments`, {
      headers: { Authorization: `Bearer ${tokens.api}` },
    });
    expect([response.status, response.headers.get("content-type")]).toEqual([200, "application/json"]);
  });
});
