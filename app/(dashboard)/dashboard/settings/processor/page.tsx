import type { Metadata } from "next";
import { requireMerchantSession } from "@/app/_lib/session";
import { LocalTime } from "@/components/relative-time";
import { BackLink } from "@/components/ui/simple-table";
import { getDb } from "@/db/client";
import { can } from "@/lib/accounts/permissions";
import { describeProcessorConnection } from "@/lib/processors/connections";
import { PROCESSOR_NAMES } from "@/lib/processors/names";
import { ProcessorForm } from "./processor-form";

export const metadata: Metadata = { title: "Processor settings" };

const section =
  "space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800";
const muted = "text-sm text-zinc-600 dark:text-zinc-400";

/** Settings → Processor: who takes this environment's payments (DESIGN.md, "Processors"). */
export default async function ProcessorSettingsPage() {
  const { merchantId, role, environment } = await requireMerchantSession();
  const connection = await describeProcessorConnection(getDb(), merchantId);
  const live = environment.kind === "live";
  return (
    <div className="max-w-3xl space-y-6">
      <div>
        <BackLink href="/dashboard/settings">Settings</BackLink>
        <h1 className="mt-2 text-2xl font-semibold">Processor</h1>
        <p className={`mt-1 ${muted}`}>
          {live
            ? "Live payments go through your own Mollie or Stripe account: your contract, your rates, and the payer pays on the processor's page."
            : "A sandbox's payments go to the simulator, or to a processor's own test mode with a test key."}
        </p>
      </div>
      <section aria-labelledby="processor-heading" className={section}>
        <h2 id="processor-heading" className="text-base font-semibold">
          {connection ? PROCESSOR_NAMES[connection.processor] : "Not connected"}
        </h2>
        <p className={muted} data-testid="processor-connection">
          {connection ? (
            <>
              Connected with the {connection.mode} key ending {connection.keyLast4} since{" "}
              <LocalTime value={connection.connectedAt} />. The key is stored encrypted and never shown again.
            </>
          ) : live ? (
            "Live takes no payment until a processor is connected: the API answers 409."
          ) : (
            "Payments here go to the simulator: test cards, test helpers and payments trigger."
          )}
        </p>
        {can(role, "processor:connect") ? (
          <ProcessorForm current={connection?.processor} live={live} />
        ) : (
          <p className="text-sm">Only an owner can connect a processor.</p>
        )}
      </section>
    </div>
  );
}
