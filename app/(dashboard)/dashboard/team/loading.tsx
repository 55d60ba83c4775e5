import { PageSkeleton } from "@/components/page-skeleton";

export default function Loading() {
  return <PageSkeleton label="Loading team" blocks={["h-8 w-40", "h-32", "h-48"]} />;
}
