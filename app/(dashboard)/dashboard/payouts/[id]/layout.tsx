import { loadPayout } from "./load-payout";

/** Checks the payout exists before the page's loading state streams, so a missing one answers 404. */
export default async function PayoutLayout({
  params,
  children,
}: {
  params: Promise<{ id: string }>;
  children: React.ReactNode;
}) {
  await loadPayout(params);
  return children;
}
