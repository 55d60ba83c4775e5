import { loadPaymentLink } from "./load-link";

/** Checks the link exists before the page's loading state streams, so a missing one answers 404. */
export default async function PaymentLinkLayout({
  params,
  children,
}: {
  params: Promise<{ id: string }>;
  children: React.ReactNode;
}) {
  await loadPaymentLink(params);
  return children;
}
