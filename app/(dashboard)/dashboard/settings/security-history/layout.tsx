import { forbidden } from "next/navigation";
import { requireMerchantSession } from "@/app/_lib/session";
import { can } from "@/lib/accounts/permissions";

/**
 * Owners only: checked here, above the page's loading state, so any other role gets a 403 status and page (a
 * check inside the page would come after the 200 the streamed loading state already sent). The page checks
 * again: authorization lives where the data is read.
 */
export default async function SecurityHistoryLayout({ children }: { children: React.ReactNode }) {
  const { role } = await requireMerchantSession();
  if (!can(role, "security_history:read")) forbidden();
  return children;
}
