import { PageSkeleton } from "@/components/page-skeleton";

export default function Loading() {
  return <PageSkeleton label="Loading API keys" blocks={["h-8 w-40", "h-28", "h-64"]} />;
}
