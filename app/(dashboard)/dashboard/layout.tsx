import { accountEnvironments, requireMerchantSession } from "@/app/_lib/session";
import { Link } from "@/components/link";
import { ReauthenticationProvider } from "@/components/reauthentication";
import { Toaster } from "@/components/toaster";
import { getDb } from "@/db/client";
import { countNeedingResponse } from "@/lib/disputes/queries";
import { environmentPrefix, pathIn, selectorOf } from "@/lib/environments/dashboard-paths";
import { AccountMenu } from "./account-menu";
import { DisabledEndpointsBanner } from "./disabled-endpoints-banner";
import { EnvironmentSwitcher, SandboxBanner } from "./environment-switcher";
import { NavLinks } from "./nav-links";
import { confirmPassword } from "./reauthentication/actions";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const session = await requireMerchantSession({ allowWithoutSecondFactor: true });
  // One short index range: the disputes waiting for an answer, counted in the navigation on every page.
  const [needsResponse, environments] = await Promise.all([
    countNeedingResponse(getDb(), session.merchantId),
    accountEnvironments(session.accountId),
  ]);
  const choices = environments.map((environment) => ({
    selector: selectorOf(environment),
    name: environment.name,
  }));
  const current = selectorOf(session.environment);
  const inSandbox = session.environment.kind === "sandbox";
  return (
    <ReauthenticationProvider confirm={confirmPassword}>
      {inSandbox ? <SandboxBanner name={session.environment.name} /> : null}
      <div className="min-h-screen md:flex">
        <a
          href="#main"
          className="sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-indigo-700 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 dark:bg-zinc-900 dark:text-indigo-300"
        >
          Skip to content
        </a>
        {/*
        The navigation stays in view on long pages: a sticky bar on a phone; from 768 px a column stretched to
        the page's full height (so its white runs to the bottom) whose contents stick to the top.
      */}
        <aside
          className={`sticky ${inSandbox ? "top-8" : "top-0"} z-30 border-b border-zinc-200 bg-white px-4 pt-3 pb-2 md:static md:w-56 md:shrink-0 md:border-b-0 md:border-r md:py-6 dark:border-zinc-800 dark:bg-zinc-900`}
        >
          <div className={`md:sticky ${inSandbox ? "md:top-14" : "md:top-6"}`}>
            <div className="mb-2 flex items-center justify-between gap-2 md:mb-6 md:flex-col md:items-stretch md:gap-4">
              <Link
                href={pathIn(current, "/dashboard")}
                className="block px-3 text-lg font-bold tracking-tight text-indigo-600 dark:text-indigo-400"
              >
                Payments
              </Link>
              {/* On a phone the switcher and the account menu share the logo's row; the header bar is for wider screens. */}
              <div className="flex min-w-0 items-center gap-2 md:block md:px-3">
                <EnvironmentSwitcher choices={choices} current={current} />
                <div className="md:hidden">
                  <AccountMenu name={session.name} email={session.email} />
                </div>
              </div>
            </div>
            <NavLinks needsResponse={needsResponse} prefix={environmentPrefix(current)} />
          </div>
        </aside>
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="hidden h-14 items-center justify-end border-b border-zinc-200 bg-white px-4 dark:border-zinc-800 md:flex dark:bg-zinc-900">
            <AccountMenu name={session.name} email={session.email} />
          </header>
          <main id="main" tabIndex={-1} className="flex-1 px-4 py-6 focus:outline-none md:px-8">
            <DisabledEndpointsBanner />
            {children}
          </main>
          <Toaster />
        </div>
      </div>
    </ReauthenticationProvider>
  );
}
