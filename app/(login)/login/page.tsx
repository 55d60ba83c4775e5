import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { safeReturnPath } from "@/app/_lib/return-path";
import { hasLiveSession } from "@/app/_lib/session";
import { AuthCard } from "../auth-card";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Log in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[] }>;
}) {
  const { next } = await searchParams;
  const returnTo = safeReturnPath(typeof next === "string" ? next : undefined);
  if (await hasLiveSession()) redirect(returnTo);
  return (
    <AuthCard
      title="Log in to your account"
      footer={{ text: "New merchant?", linkText: "Create an account", href: "/signup" }}
    >
      <LoginForm returnTo={returnTo} />
    </AuthCard>
  );
}
