import { PageSkeleton } from "@/components/page-skeleton";

export default function Loading() {
  return <PageSkeleton label="Loading payment links" blocks={["h-8 w-48", "h-40", "h-64"]} />;
}
