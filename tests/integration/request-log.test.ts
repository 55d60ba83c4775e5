import { describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";
import { logInOverHttp } from "../support/http-session";

const baseUrl = inject("baseUrl");
const { tokens, seed } = inject("data");

/** The Logs page's HTML for a filter, as the signed-in merchant sees it. */
async function logsPage(cookie: string, query: string): Promise<string> {
  const response = await fetch(`${baseUrl}/dashboard/logs?${query}`, { headers: { cookie } });
  expect(response.status).toBe(200);
  // Paths carry <wbr> break hints after each "/", "?" and "&" (they wrap there on a phone).
  return (await response.text()).replaceAll("<wbr/>", "");
}

async function eventually(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("not logged within 10 s");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("the API request log", () => {
  it("records each token's request with its id, status and error body, never the token, for its merchant only", async () => {
    const missing = await callApi(baseUrl, "/api/payments/999999999", {
      token: tokens.api,
      headers: { "Idempotency-Key": "log-test-key" },
    });
    expect(missing.status).toBe(404);
    const requestId = missing.headers.get("x-request-id")!;
    const listed = await callApi(baseUrl, "/api/payments?perPage=1", { token: tokens.api });
    const listedId = listed.headers.get("x-request-id")!;

    const { cookie } = await logInOverHttp(baseUrl, seed.email, seed.password, {
      "X-Forwarded-For": "192.0.2.77",
    });
    let html = "";
    // The filter form echoes the id back; the list of entries is there only when one matched.
    const logged = 'aria-label="API requests"';
    await eventually(async () => (html = await logsPage(cookie, `request_id=${requestId}`)).includes(logged));
    expect(html).toContain("/api/payments/999999999");
    expect(html).toContain("log-test-key");
    // The 404's body is kept (HTML-escaped in the page); a 200's is not.
    expect(html).toContain("{&quot;message&quot;:&quot;Not Found&quot;}");
    expect(html).not.toContain(tokens.api);
    await eventually(async () => (html = await logsPage(cookie, `request_id=${listedId}`)).includes(logged));
    expect(html).toContain("/api/payments?perPage=1");
    expect(html).not.toContain("Response body");
    // Filters: a 4xx filter finds the 404, a 2xx filter does not.
    expect(await logsPage(cookie, `request_id=${requestId}&status=2xx`)).toContain(
      "No requests match these filters.",
    );
    expect(
      await logsPage(cookie, `request_id=${requestId}&status=4xx&method=GET&path=/api/payments/`),
    ).toContain(logged);
    // Bad filter values are ignored, never an error page.
    expect(
      await logsPage(cookie, "status=9xx&method=BREW&token=abc&request_id=%27&before=-1&path=nope"),
    ).toContain("Logs");

    // Another merchant sees none of it.
    const other = inject("data").other;
    const otherSession = await logInOverHttp(baseUrl, other.email, other.password, {
      "X-Forwarded-For": "192.0.2.78",
    });
    expect(await logsPage(otherSession.cookie, `request_id=${requestId}`)).not.toContain(logged);
  });
});
