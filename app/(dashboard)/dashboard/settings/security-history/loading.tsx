import { PageSkeleton } from "@/components/page-skeleton";

export default function Loading() {
  return <PageSkeleton label="Loading" blocks={["h-8 w-56", "h-16", "h-96"]} />;
}
