import { PageSkeleton } from "@/components/page-skeleton";

export default function Loading() {
  return <PageSkeleton label="Loading payments" blocks={["h-8 w-40", "h-10", "h-96", "h-8 w-64"]} />;
}
