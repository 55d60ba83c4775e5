import { Link } from "@/components/link";
import type { OnboardingProgress } from "@/lib/accounts/merchants";

const STEPS = [
  {
    done: "hasApiKey",
    title: "Generate an API key",
    body: "Your backend authenticates with it.",
    href: "/dashboard/api-keys",
    action: "API keys",
  },
  {
    done: "hasPayment",
    title: "Send your first payment",
    body: "POST /api/payments with the key, or create a test payment here.",
    href: "/dashboard/developers",
    action: "See the curl example",
  },
  {
    done: "hasEndpoint",
    title: "Add a webhook endpoint",
    body: "Hear about every payment as it completes or fails.",
    href: "/dashboard/webhooks",
    action: "Webhooks",
  },
] as const;

/** A new account's three first steps; it goes away once all three are done. */
export function GetStarted({ progress }: { progress: OnboardingProgress }) {
  const remaining = STEPS.filter((step) => !progress[step.done]).length;
  if (remaining === 0) return null;
  return (
    <section
      aria-labelledby="get-started-heading"
      className="rounded-lg bg-indigo-50 p-4 ring-1 ring-indigo-200 dark:bg-indigo-950/40 dark:ring-indigo-900"
    >
      <h2 id="get-started-heading" className="text-base font-semibold">
        Get started
      </h2>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        {STEPS.length - remaining} of {STEPS.length} done.
      </p>
      <ol className="mt-3 grid gap-3 md:grid-cols-3">
        {STEPS.map((step, index) => {
          const done = progress[step.done];
          return (
            <li
              key={step.done}
              className="rounded-md bg-white p-3 text-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
            >
              <p className="font-medium">
                <span aria-hidden="true" className={done ? "text-green-700 dark:text-green-400" : ""}>
                  {done ? "✓" : `${index + 1}.`}
                </span>{" "}
                {step.title}
                {done ? <span className="sr-only"> (done)</span> : null}
              </p>
              <p className="mt-1 text-zinc-600 dark:text-zinc-400">{step.body}</p>
              {done ? null : (
                <Link
                  href={step.href}
                  className="mt-2 inline-block text-indigo-700 hover:underline dark:text-indigo-300"
                >
                  {step.action} →
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
