import { PageSkeleton } from "@/components/page-skeleton";

export default function Loading() {
  return <PageSkeleton label="Loading payment link" blocks={["h-8 w-48", "h-32", "h-64"]} />;
}
