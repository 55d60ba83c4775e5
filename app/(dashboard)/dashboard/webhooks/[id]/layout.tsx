import { loadEndpoint } from "./load-endpoint";

/** Checks the endpoint exists before the page's loading state streams, so a missing one answers 404. */
export default async function EndpointLayout({
  params,
  children,
}: {
  params: Promise<{ id: string }>;
  children: React.ReactNode;
}) {
  await loadEndpoint(params);
  return children;
}
