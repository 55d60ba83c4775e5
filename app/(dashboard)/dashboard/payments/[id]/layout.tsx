import { loadPayment } from "./load-payment";

/** Checks the payment exists before the page's loading state streams, so a missing one answers 404. */
export default async function PaymentLayout({
  params,
  children,
}: {
  params: Promise<{ id: string }>;
  children: React.ReactNode;
}) {
  await loadPayment(params);
  return children;
}
