import { PageSkeleton } from "@/components/page-skeleton";

export default function Loading() {
  return <PageSkeleton label="Loading developers" blocks={["h-8 w-40", "h-56", "h-40", "h-64"]} />;
}
