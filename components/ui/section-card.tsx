import { SectionHeading } from "./section-heading";

/** A settings section: a card named by its heading (`id` ties the two for screen readers). */
export function SectionCard({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
    >
      <SectionHeading id={id} title={title} />
      {children}
    </section>
  );
}
