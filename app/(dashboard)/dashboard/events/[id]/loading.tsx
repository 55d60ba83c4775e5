import { PageSkeleton } from "@/components/page-skeleton";

export default function Loading() {
  return <PageSkeleton label="Loading event" blocks={["h-8 w-64", "h-48", "h-24"]} />;
}
