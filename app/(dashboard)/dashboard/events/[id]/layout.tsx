import { loadEvent } from "./load-event";

/** Checks the event exists before the page's loading state streams, so a missing one answers 404. */
export default async function EventLayout({
  params,
  children,
}: {
  params: Promise<{ id: string }>;
  children: React.ReactNode;
}) {
  await loadEvent((await params).id);
  return children;
}
