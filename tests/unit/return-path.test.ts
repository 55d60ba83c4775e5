import { describe, expect, it } from "vitest";
import { safeReturnPath } from "@/app/_lib/return-path";

describe("safeReturnPath", () => {
  it.each([
    ["/dashboard/payments/43", "/dashboard/payments/43"],
    ["/dashboard/payments?status=failed&page=2", "/dashboard/payments?status=failed&page=2"],
    ["/dashboard", "/dashboard"],
    ["/live/dashboard/payouts", "/live/dashboard/payouts"],
    ["/sandbox/17/dashboard/payments?status=failed", "/sandbox/17/dashboard/payments?status=failed"],
  ])("keeps the dashboard path %s", (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected);
  });

  it.each([
    undefined,
    null,
    "",
    "dashboard",
    "//evil.example/dashboard",
    "/\\evil.example",
    "/%5Cevil.example",
    "https://evil.example/dashboard",
    "javascript:alert(1)",
    "/dashboardx",
    "/login",
    "/api/payments",
    "/dashboard/../api/payments",
    "/%2F%2Fevil.example",
    "/sandbox/x/dashboard",
    "/sandbox/17/api/payments",
    "/live/dashboardx",
  ])("falls back to /dashboard for %j", (input) => {
    expect(safeReturnPath(input)).toBe("/dashboard");
  });
});
