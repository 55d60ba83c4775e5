import { Link } from "@/components/link";

/** A page's switch (the Overview's currency and range, the Balance chart's currency): links that keep the other's choice, the current marked. */
export function SwitchLinks({
  label,
  options,
}: {
  label: string;
  options: Array<{ key: string; text: string; href: string; current: boolean }>;
}) {
  return (
    <nav aria-label={label} className="flex gap-1">
      {options.map((option) => (
        <Link
          key={option.key}
          href={option.href}
          aria-current={option.current ? "true" : undefined}
          scroll={false}
          className="rounded-md px-2 py-1 text-sm font-medium hover:bg-zinc-100 aria-[current=true]:bg-zinc-200 dark:hover:bg-zinc-800 dark:aria-[current=true]:bg-zinc-800"
        >
          {option.text}
        </Link>
      ))}
    </nav>
  );
}
