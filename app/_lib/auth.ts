import "server-only";
import NextAuth, { CredentialsSignin, type DefaultSession } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { cache } from "react";
import { getDb } from "@/db/client";
import { authenticateMerchantUser } from "@/lib/accounts/accounts";
import { logInSchema } from "@/lib/accounts/schemas";
import { clientIp } from "@/lib/platform/client-ip";
import { DomainError } from "@/lib/platform/errors";
import { logger } from "@/lib/platform/logger";

declare module "next-auth" {
  interface Session {
    user: { id: string; merchantId: number; email: string; name: string } & DefaultSession["user"];
  }
  interface User {
    merchantId?: number;
  }
}

/** Carries "throttled" or "invalid" to the login form; the detail stays on the server. */
class LoginRefused extends CredentialsSignin {
  constructor(
    code: "throttled" | "invalid",
    readonly detail: string,
  ) {
    super(detail);
    this.code = code;
  }
}

const nextAuth = NextAuth({
  // The app runs behind its own load balancer and reads the host it is served on.
  trustHost: true,
  session: { strategy: "jwt", maxAge: 7 * 24 * 60 * 60 },
  pages: { signIn: "/login" },
  logger: {
    error: (error) =>
      error instanceof LoginRefused ? undefined : logger.error({ err: error }, "Sign-in error"),
  },
  providers: [
    Credentials({
      credentials: { email: { type: "email" }, password: { type: "password" } },
      async authorize(credentials, request) {
        const parsed = logInSchema.safeParse(credentials);
        if (!parsed.success) throw new LoginRefused("invalid", "Invalid credentials.");
        try {
          const account = await authenticateMerchantUser(getDb(), parsed.data, clientIp(request.headers));
          return {
            id: String(account.userId),
            email: account.email,
            name: account.name,
            merchantId: account.merchantId,
          };
        } catch (error) {
          if (error instanceof DomainError) {
            throw new LoginRefused(error.kind === "throttled" ? "throttled" : "invalid", error.message);
          }
          throw error;
        }
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user?.merchantId) token.merchantId = user.merchantId;
      return token;
    },
    session({ session, token }) {
      session.user.id = token.sub ?? "";
      session.user.merchantId = Number(token.merchantId);
      return session;
    },
  },
});

export const { handlers, signIn, signOut } = nextAuth;
/** Reads the session once per request, however many components ask. */
export const auth = cache(nextAuth.auth);

declare module "@auth/core/jwt" {
  interface JWT {
    merchantId?: number;
  }
}
