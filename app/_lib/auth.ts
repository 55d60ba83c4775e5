import "server-only";
import NextAuth, { AuthError, CredentialsSignin, type DefaultSession } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { cache } from "react";
import { getDb } from "@/db/client";
import type { MerchantAccount } from "@/lib/accounts/accounts";
import { logInSchema, secondFactorSchema } from "@/lib/accounts/schemas";
import { endUserSession, startUserSession } from "@/lib/accounts/sessions";
import { authenticateMerchantUser, CodeAlreadyUsed, completeSecondFactor } from "@/lib/accounts/sign-in";
import { clientIp, clientUserAgent } from "@/lib/platform/client-ip";
import { DomainError } from "@/lib/platform/errors";
import { logger } from "@/lib/platform/logger";

declare module "next-auth" {
  interface Session {
    user: { id: string; merchantId: number; email: string; name: string } & DefaultSession["user"];
    /** The server-side session this cookie belongs to (lib/accounts/sessions.ts); useless without AUTH_SECRET. */
    sessionKey: string;
  }
  interface User {
    merchantId?: number;
    sessionKey?: string;
  }
}

/**
 * Carries "throttled", "invalid", "two_factor" (with the challenge for the code step), "code_invalid" or
 * "code_used" (a right code already used: wait for the next) to the login form; the detail stays on the server.
 */
export class LoginRefused extends CredentialsSignin {
  constructor(
    code: "throttled" | "invalid" | "two_factor" | "code_invalid" | "code_used",
    readonly detail: string,
    readonly challenge?: string,
  ) {
    super(detail);
    this.code = code;
  }
}

/**
 * A callbackUrl that is no URL at all: next-auth's own redirect rule threw a bare TypeError for it, logged as
 * a server error. Still thrown, so the answer stays next-auth's error page.
 */
class UnparsableCallbackUrl extends TypeError {}

/**
 * next-auth's refusals of a request anyone can send (no CSRF token, an unknown action, a session cookie
 * that is not ours): the sender's fault, so a warning, not an error anyone could fill the error log with.
 */
const REFUSED_REQUEST_TYPES = new Set(["MissingCSRF", "UnknownAction", "JWTSessionError"]);
const isRefusedRequest = (error: Error) =>
  error instanceof UnparsableCallbackUrl ||
  (error instanceof AuthError && REFUSED_REQUEST_TYPES.has(error.type));

function refusalCode(error: DomainError, codeStep: boolean) {
  if (error.kind === "throttled") return "throttled";
  if (error instanceof CodeAlreadyUsed) return "code_used";
  return codeStep ? "code_invalid" : "invalid";
}

/** The password step, or the code step when the form carries a challenge. */
async function checkCredentials(
  credentials: unknown,
  { ip, userAgent }: { ip: string; userAgent: string | null },
): Promise<MerchantAccount> {
  const secondFactor = secondFactorSchema.safeParse(credentials);
  if (secondFactor.success) return completeSecondFactor(getDb(), secondFactor.data, ip, userAgent);
  const parsed = logInSchema.safeParse(credentials);
  if (!parsed.success) throw new LoginRefused("invalid", "Invalid credentials.");
  const result = await authenticateMerchantUser(getDb(), parsed.data, ip, userAgent);
  if ("challenge" in result)
    throw new LoginRefused("two_factor", "A second factor is needed.", result.challenge);
  return result.account;
}

const nextAuth = NextAuth({
  // The app runs behind its own load balancer and reads the host it is served on.
  trustHost: true,
  session: { strategy: "jwt", maxAge: 7 * 24 * 60 * 60 },
  pages: { signIn: "/login" },
  logger: {
    error(error) {
      if (error instanceof LoginRefused) return;
      // next-auth's error classes lose their names to minification; their `type` keeps it.
      const authError = error instanceof AuthError ? error.type : undefined;
      if (isRefusedRequest(error))
        logger.warn({ err: error, auth_error: authError }, "Sign-in request refused");
      else logger.error({ err: error, auth_error: authError }, "Sign-in error");
    },
  },
  providers: [
    Credentials({
      credentials: {
        email: { type: "email" },
        password: { type: "password" },
        challenge: { type: "text" },
        code: { type: "text" },
      },
      async authorize(credentials, request) {
        try {
          const client = { ip: clientIp(request.headers), userAgent: clientUserAgent(request.headers) };
          const account = await checkCredentials(credentials, client);
          return {
            id: String(account.userId),
            email: account.email,
            name: account.name,
            merchantId: account.merchantId,
            sessionKey: await startUserSession(getDb(), account, client),
          };
        } catch (error) {
          if (error instanceof DomainError)
            throw new LoginRefused(refusalCode(error, "challenge" in (credentials ?? {})), error.message);
          throw error;
        }
      },
    }),
  ],
  callbacks: {
    /** next-auth's own rule (a path, or a URL on this origin; anything else goes home), minus the bare TypeError. */
    redirect({ url, baseUrl }) {
      if (url.startsWith("/")) return `${baseUrl}${url}`;
      if (!URL.canParse(url))
        throw new UnparsableCallbackUrl(
          `Refused a callbackUrl that is not a URL: ${JSON.stringify(url.slice(0, 100))}`,
        );
      return new URL(url).origin === baseUrl ? url : baseUrl;
    },
    jwt({ token, user }) {
      if (user?.merchantId) token.merchantId = user.merchantId;
      if (user?.sessionKey) token.sessionKey = user.sessionKey;
      return token;
    },
    session({ session, token }) {
      session.user.id = token.sub ?? "";
      session.user.merchantId = Number(token.merchantId);
      // A cookie from before server-side sessions has none, and matches no session.
      session.sessionKey = token.sessionKey ?? "";
      return session;
    },
  },
  events: {
    // Logout ends the session on the server: a copy of the cookie opens nothing afterwards.
    async signOut(message) {
      const sessionKey = "token" in message ? message.token?.sessionKey : undefined;
      if (sessionKey) await endUserSession(getDb(), sessionKey);
    },
  },
});

export const { handlers, signIn, signOut } = nextAuth;
/** Reads the session once per request, however many components ask. */
export const auth = cache(nextAuth.auth);

declare module "@auth/core/jwt" {
  interface JWT {
    merchantId?: number;
    sessionKey?: string;
  }
}
