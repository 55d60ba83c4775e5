import { loadDispute } from "./load-dispute";

/** Checks the dispute exists before the page's loading state streams, so a missing one answers 404. */
export default async function DisputeLayout({
  params,
  children,
}: {
  params: Promise<{ id: string }>;
  children: React.ReactNode;
}) {
  await loadDispute(params);
  return children;
}
