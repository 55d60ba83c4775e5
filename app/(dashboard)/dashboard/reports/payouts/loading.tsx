import { PageSkeleton } from "@/components/page-skeleton";

export default function Loading() {
  return <PageSkeleton label="Loading" blocks={["h-8 w-40", "h-24", "h-64"]} />;
}
