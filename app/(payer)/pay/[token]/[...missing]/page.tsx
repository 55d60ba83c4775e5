import { notFound } from "next/navigation";

/** Any deeper path under a payer's page is the payer's 404, not the dashboard's. */
export default function MissingPayerPage() {
  notFound();
}
