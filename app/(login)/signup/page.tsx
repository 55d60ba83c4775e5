import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { hasLiveSession } from "@/app/_lib/session";
import { AuthCard } from "../auth-card";
import { SignupForm } from "./signup-form";

export const metadata: Metadata = { title: "Sign up" };

export default async function SignupPage() {
  if (await hasLiveSession()) redirect("/dashboard");
  return (
    <AuthCard
      title="Create your merchant account"
      footer={{ text: "Already have an account?", linkText: "Log in", href: "/login" }}
    >
      <SignupForm />
    </AuthCard>
  );
}
