import { notFound } from "next/navigation";

/** Any other /dashboard path: the dashboard's own 404, inside the frame. */
export default function MissingDashboardPage() {
  notFound();
}
