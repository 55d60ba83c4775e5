import { Link } from "@/components/link";

export function AuthCard({
  title,
  children,
  footer,
}: {
  title: string;
  children: React.ReactNode;
  footer: { text: string; linkText: string; href: string };
}) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <p className="mb-6 text-center text-lg font-bold tracking-tight text-indigo-600 dark:text-indigo-400">
          Payments
        </p>
        <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
          <h1 className="mb-6 text-xl font-semibold">{title}</h1>
          {children}
        </div>
        <p className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
          {footer.text}{" "}
          <Link
            href={footer.href}
            className="font-semibold text-indigo-600 hover:underline dark:text-indigo-400"
          >
            {footer.linkText}
          </Link>
        </p>
      </div>
    </main>
  );
}
