import { PageSkeleton } from "@/components/page-skeleton";

export default function Loading() {
  return <PageSkeleton label="Loading webhook endpoint" blocks={["h-4 w-24", "h-8 w-96", "h-40", "h-96"]} />;
}
