import { Link } from "@/components/link";

/** A list's one-choice filter as a row of pills (Refunds by status, Disputes by status): "All" first. */
export function FilterPills({
  label,
  options,
}: {
  label: string;
  options: Array<{ key: string; text: string; href: string; current: boolean }>;
}) {
  return (
    <nav aria-label={label} className="flex flex-wrap gap-2 text-sm">
      {options.map((option) => (
        <Link
          key={option.key}
          href={option.href}
          aria-current={option.current ? "page" : undefined}
          className={`rounded-full px-3 py-1 ring-1 ring-inset ${
            option.current
              ? "bg-indigo-600 text-white ring-indigo-600"
              : "text-zinc-700 ring-zinc-300 hover:bg-zinc-100 dark:text-zinc-300 dark:ring-zinc-700 dark:hover:bg-zinc-800"
          }`}
        >
          {option.text}
        </Link>
      ))}
    </nav>
  );
}
