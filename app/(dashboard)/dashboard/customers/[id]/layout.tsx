import { loadCustomer } from "./load-customer";

/** Checks the customer exists before the page's loading state streams, so a missing one answers 404. */
export default async function CustomerLayout({
  params,
  children,
}: {
  params: Promise<{ id: string }>;
  children: React.ReactNode;
}) {
  await loadCustomer((await params).id);
  return children;
}
