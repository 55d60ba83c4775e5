import { PageSkeleton } from "@/components/page-skeleton";

export default function Loading() {
  return <PageSkeleton label="Loading payment" blocks={["h-4 w-24", "h-8 w-56", "h-48", "h-64"]} />;
}
