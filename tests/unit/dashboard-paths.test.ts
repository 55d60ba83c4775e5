import { describe, expect, it } from "vitest";
import { pathIn, readSelector, sectionOf, splitDashboardPath } from "@/lib/environments/dashboard-paths";

describe("dashboard paths naming their environment", () => {
  it.each([
    ["/live/dashboard", "live", "/dashboard"],
    ["/live/dashboard/payouts/3", "live", "/dashboard/payouts/3"],
    ["/sandbox/42/dashboard/payments", "42", "/dashboard/payments"],
    ["/dashboard/payments", null, "/dashboard/payments"],
    ["/sandbox/042/dashboard", null, "/sandbox/042/dashboard"],
    ["/sandbox/1/dashboardx", null, "/sandbox/1/dashboardx"],
    ["/sandbox/12345678901234567/dashboard", null, "/sandbox/12345678901234567/dashboard"],
    ["/live/api/payments", null, "/live/api/payments"],
  ])("%s names %j and the page %s", (path, selector, page) => {
    expect(splitDashboardPath(path)).toEqual({ selector, page });
  });

  it("puts a page in an environment, and back", () => {
    expect(pathIn("live", "/dashboard/balance")).toBe("/live/dashboard/balance");
    expect(pathIn("7", "/dashboard")).toBe("/sandbox/7/dashboard");
    expect(splitDashboardPath(pathIn("7", "/dashboard/logs"))).toEqual({
      selector: "7",
      page: "/dashboard/logs",
    });
  });

  it("reads only a well-formed selector from a cookie", () => {
    expect(readSelector("live")).toBe("live");
    expect(readSelector("12")).toBe("12");
    for (const bad of [undefined, null, "", "0", "-1", "1 or 1=1", "Live", "12a"])
      expect(readSelector(bad)).toBeNull();
  });

  it.each([
    ["/dashboard/payments/12/refunds", "/dashboard/payments"],
    ["/dashboard/settings/payouts", "/dashboard/settings/payouts"],
    ["/dashboard", "/dashboard"],
    ["/dashboard/webhooks/5", "/dashboard/webhooks"],
  ])("switching from %s lands on %s", (page, section) => {
    expect(sectionOf(page)).toBe(section);
  });
});
