import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { auth } from "@/app/_lib/auth";
import { AuthCard } from "../auth-card";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Log in" };

export default async function LoginPage() {
  if ((await auth())?.user) redirect("/dashboard");
  return (
    <AuthCard
      title="Log in to your account"
      footer={{ text: "New merchant?", linkText: "Create an account", href: "/signup" }}
    >
      <LoginForm />
    </AuthCard>
  );
}
