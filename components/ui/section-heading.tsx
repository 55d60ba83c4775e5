import { Link } from "@/components/link";

/**
 * A page section's heading (its `id` names the section through aria-labelledby), with an optional link to
 * the fuller view on the right: "Open in Events →", "All 40 in Payments →".
 */
export function SectionHeading({
  id,
  title,
  more,
}: {
  id: string;
  title: string;
  more?: { href: string; label: string };
}) {
  const heading = (
    <h2 id={id} className="text-base font-semibold">
      {title}
    </h2>
  );
  if (!more) return heading;
  return (
    <div className="flex items-baseline justify-between gap-3">
      {heading}
      <Link href={more.href} className="text-sm text-indigo-700 hover:underline dark:text-indigo-300">
        {more.label}
      </Link>
    </div>
  );
}
