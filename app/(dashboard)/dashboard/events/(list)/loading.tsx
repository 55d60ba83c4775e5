import { PageSkeleton } from "@/components/page-skeleton";

export default function Loading() {
  return <PageSkeleton label="Loading events" blocks={["h-8 w-40", "h-20", "h-64"]} />;
}
