// Logs in through next-auth's real credentials endpoint, as a browser form post would, and keeps the cookies.

function cookiesFrom(response: Response): string[] {
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);
}

export type LoginResult = { status: number; location: string; cookie: string };

export async function logInOverHttp(
  baseUrl: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
  /** The code step's fields (`challenge`, `code`) instead of the email and password. */
  secondFactor?: { challenge: string; code: string },
): Promise<LoginResult> {
  const csrfResponse = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
  const response = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: {
      ...headers,
      "content-type": "application/x-www-form-urlencoded",
      cookie: cookiesFrom(csrfResponse).join("; "),
    },
    body: new URLSearchParams({
      ...(secondFactor ?? { email, password }),
      csrfToken,
      callbackUrl: "/dashboard",
    }),
  });
  return {
    status: response.status,
    location: response.headers.get("location") ?? "",
    cookie: [...cookiesFrom(csrfResponse), ...cookiesFrom(response)].join("; "),
  };
}
