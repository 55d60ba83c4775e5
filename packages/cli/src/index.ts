import { Payments, PaymentsApiError, PaymentsConnectionError, type Dispute } from "@payments-platform/sdk";
import { Command, CommanderError, Option } from "commander";
import { requestApi, type ApiRequestOptions } from "./api-request.js";
import { listBalanceTransactions, parsePayoutId, showPayout } from "./balance-transactions.js";
import { showBalance } from "./balance.js";
import { keyHint, loadCredentials, parseApiUrl, storeCredentials, type Credentials } from "./config.js";
import { httpFetch } from "./http-fetch.js";
import { listen, type ListenOptions } from "./listen.js";
import {
  listCustomers,
  listDisputes,
  listEvents,
  listPayments,
  listPayouts,
  listRefunds,
  parsePositiveInt,
} from "./lists.js";
import { tailLogs } from "./logs-tail.js";
import { CliError, emit, EXIT, plural } from "./output.js";
import { parsePaymentId, showPayment } from "./payment-show.js";
import { showBalanceSummary, showPayoutReconciliation, type ReportFlags } from "./reports.js";
import { addSandboxCommands } from "./sandboxes.js";
import { collect, trigger, TRIGGERS, type TriggerOptions } from "./trigger.js";

const client = (credentials: Credentials) =>
  new Payments({ apiKey: credentials.apiKey, baseUrl: credentials.apiUrl, maxRetries: 1, fetch: httpFetch });

/**
 * A refusal as lines, each saying one thing once: a 422's field errors as `field: message` (the SDK's
 * message is the first of them, so it is not printed again), anything else its message.
 */
function refusalLines(error: PaymentsApiError): string[] {
  const fieldErrors = Object.entries(error.errors).flatMap(([field, messages]) =>
    messages.map((message) => `${field}: ${message}`),
  );
  const said = fieldErrors.length > 0 ? [...new Set(fieldErrors)] : [error.message];
  return said.map((thing) => `The API refused (${error.status}): ${thing}`);
}

/** An SDK or CLI failure as lines and its exit code; anything else is a bug and keeps its stack. */
function exitCodeFor(error: unknown): { lines: string[]; code: number } | null {
  if (error instanceof CliError) return { lines: [error.message], code: error.exitCode };
  if (error instanceof PaymentsApiError) {
    if (error.status === 401)
      return {
        lines: ["The API refused the key (401): check it, or log in again."],
        code: EXIT.unauthenticated,
      };
    return { lines: refusalLines(error), code: EXIT.refused };
  }
  if (error instanceof PaymentsConnectionError) return { lines: [error.message], code: EXIT.unreachable };
  return null;
}

const EXIT_HELP = `
Exit codes:
  0  success
  1  the API refused the request
  2  bad command line (unknown option, malformed URL, a -d that is not JSON)
  3  not logged in, or the key was refused (401)
  4  the API could not be reached

Environment: PAYMENTS_API_URL and PAYMENTS_API_KEY override the stored login; NO_COLOR turns colour off.`;

const program = new Command()
  .name("payments")
  .description("Develop against the payments platform from your laptop.")
  .version("0.1.0")
  .addHelpText("after", EXIT_HELP)
  .exitOverride()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) });

program
  .command("login")
  .description("Check an API URL and key against the API, then store them (0600) in your config directory.")
  .requiredOption("--api-url <url>", "the platform's address, e.g. http://localhost:3000")
  .requiredOption("--api-key <key>", "an API key from the dashboard (pay_test_…, pay_live_…, or pay_acct_…)")
  .option("--json", "one JSON object on stdout")
  .action(async (options: { apiUrl: string; apiKey: string; json?: boolean }) => {
    const credentials = { apiUrl: parseApiUrl(options.apiUrl), apiKey: options.apiKey.trim() };
    // An account key reads only the account's sandboxes; any other key, payments.
    const api = client(credentials);
    if (credentials.apiKey.startsWith("pay_acct_")) await api.sandboxes.list();
    else await api.payments.list({ perPage: 1 }).next();
    const file = storeCredentials(credentials);
    emit(
      options.json === true,
      { type: "logged_in", api_url: credentials.apiUrl, key: keyHint(credentials.apiKey), config: file },
      `Logged in to ${credentials.apiUrl} with ${keyHint(credentials.apiKey)} (saved in ${file}).`,
    );
  });

program
  .command("listen")
  .description("Forward live events to a local URL, signed per Standard Webhooks; resumes after any drop.")
  .option("--forward-to <url>", "where to POST each event, e.g. http://localhost:4242/webhooks")
  .option("--events <types>", "comma-separated event types (default: all)")
  .option("--print-secret", "print the signing secret and exit (no --forward-to needed)")
  .option(
    "--after <event_id>",
    "start after this event (default: after the last one forwarded with this key)",
  )
  .option("--from-now", "skip what came while no listen ran; forward new events only")
  .option("--json", "one JSON object per line")
  .action(async (options: ListenOptions) => {
    await listen(loadCredentials(), options);
  });

program
  .command("trigger")
  .description("Create a test payment (and refund) and drive it to the event named.")
  .addArgument(new Command().createArgument("<event>", "the event to cause").choices(TRIGGERS))
  .addOption(new Option("--amount <amount>", "the payment's amount, in its currency's units").default("10"))
  .option("--currency <code>", "the payment's currency, e.g. EUR (default: your account's)")
  .option("--customer <customer_id>", "the payment's customer_id, e.g. cus_42")
  .option("--metadata <key=value>", "a metadata pair; repeat for more", collect)
  .option("--return-url <url>", "where the payer returns; the payment then waits for its payer")
  .option("--json", "one JSON object on stdout")
  .action(async (event: string, options: TriggerOptions) => {
    await trigger(client(loadCredentials()), event, options);
  });

const events = program.command("events").description("Events: what happened to your payments and refunds.");
events
  .command("resend")
  .description("Send an event again to every webhook endpoint it went to.")
  .argument("<event_id>", "the event's id (evt_…)")
  .option("--json", "one JSON object on stdout")
  .action(async (eventId: string, options: { json?: boolean }) => {
    const queued = await client(loadCredentials())
      .events.resend(eventId)
      .catch((error: unknown) => {
        // Another account's event is none of this one's either.
        if (error instanceof PaymentsApiError && (error.status === 404 || error.status === 403))
          throw new CliError(`No event ${eventId} on this account.`, EXIT.refused);
        throw error;
      });
    emit(
      options.json === true,
      { type: "resent", ...queued },
      `Event ${queued.id} queued again for ${plural(queued.deliveries_queued, "endpoint")}.`,
    );
  });

events
  .command("list")
  .description("The latest events, newest first.")
  .option("--type <type>", "only this event type, e.g. payment.completed")
  .option("--payment <id>", "only this payment's events", parsePositiveInt)
  .option("--limit <n>", "how many (default 10)", parsePositiveInt, 10)
  .option("--json", "one JSON object per line")
  .action(async (options: { type?: string; payment?: number; limit: number; json?: boolean }) => {
    await listEvents(client(loadCredentials()), options);
  });

program
  .command("balance")
  .description("Your balance per currency: available (can be paid out) and pending.")
  .option("--json", "one JSON object per currency")
  .action(async (options: { json?: boolean }) => {
    await showBalance(client(loadCredentials()), options);
  });

const reports = program.command("reports").description("Reports for your accountant.");
/** The period flags every report takes. */
const withPeriod = (command: ReturnType<typeof reports.command>) =>
  command
    .option("--currency <code>", "ISO 4217 (default: your default currency)")
    .option("--from <YYYY-MM-DD>", "the first day, inclusive (default: the first of this month)")
    .option("--to <YYYY-MM-DD>", "the day after the last, exclusive (default: the first of next month)")
    .option("--timezone <IANA name>", "the zone the days are in (default: your report time zone)")
    .option("--json", "the report as one JSON object");
withPeriod(
  reports
    .command("balance-summary")
    .description("Opening balance, activity per type, payouts and closing balance of a period."),
).action(async (options: ReportFlags) => {
  await showBalanceSummary(client(loadCredentials()), options);
});
withPeriod(
  reports
    .command("payout-reconciliation")
    .description("What each payout of a period paid, by type, and what was left unpaid at its end."),
).action(async (options: ReportFlags) => {
  await showPayoutReconciliation(client(loadCredentials()), options);
});

addSandboxCommands(program, () => client(loadCredentials()));

const payouts = program
  .command("payouts")
  .description("Payouts: money sent from your available balance to your bank account.");
payouts
  .command("list")
  .description("Payouts, newest first.")
  .option("--limit <n>", "how many (default 10)", parsePositiveInt, 10)
  .option("--page <n>", "start at this page of --limit items (default 1)", parsePositiveInt)
  .option("--json", "one JSON object per line")
  .action(async (options: { limit: number; page?: number; json?: boolean }) => {
    await listPayouts(client(loadCredentials()), options);
  });

payouts
  .command("show")
  .description("One payout and every balance transaction it carried (their net adds up to its amount).")
  .argument("<id>", "the payout's id: 12 or po_12", parsePayoutId)
  .option("--json", "the payout, then one JSON object per transaction, one per line")
  .action(async (id: number, options: { json?: boolean }) => {
    await showPayout(client(loadCredentials()), id, options);
  });

program
  .command("balance-transactions")
  .description("Every movement of your balance: payments, refunds, disputes, payouts.")
  .command("list")
  .description("Balance transactions, newest first, by payout, type and currency.")
  .option("--payout <id>", "only what this payout carried (12 or po_12)", parsePayoutId)
  .option("--type <type>", "only this type, e.g. payment, refund, dispute, payout")
  .option("--currency <code>", "only this currency (ISO 4217, e.g. EUR)")
  .option("--limit <n>", "how many (default 10)", parsePositiveInt, 10)
  .option("--page <n>", "start at this page of --limit items (default 1)", parsePositiveInt)
  .option("--json", "one JSON object per line")
  .action(async (options: Parameters<typeof listBalanceTransactions>[1]) => {
    // The API refuses an unknown type or currency (422, which the CLI prints).
    await listBalanceTransactions(client(loadCredentials()), options);
  });

program
  .command("disputes")
  .description("Disputes: payments the payer's bank took back, and your answers.")
  .command("list")
  .description("Disputes, newest first.")
  .option("--status <status>", "only this status, e.g. needs_response")
  .option("--payment <id>", "only this payment's", parsePositiveInt)
  .option("--limit <n>", "how many (default 10)", parsePositiveInt, 10)
  .option("--page <n>", "start at this page of --limit items (default 1)", parsePositiveInt)
  .option("--json", "one JSON object per line")
  .action(
    async (options: {
      status?: Dispute["status"];
      payment?: number;
      limit: number;
      page?: number;
      json?: boolean;
    }) => {
      // The API refuses an unknown status (422, which the CLI prints).
      await listDisputes(client(loadCredentials()), options);
    },
  );

program
  .command("customers")
  .description("Your customers: one per customer_id you send on payments.")
  .command("list")
  .description("Customers, the latest payment first, with their totals.")
  .option("--limit <n>", "how many (default 10)", parsePositiveInt, 10)
  .option("--json", "one JSON object per line")
  .action(async (options: { limit: number; json?: boolean }) => {
    await listCustomers(client(loadCredentials()), options);
  });

const paymentsCommand = program.command("payments").description("Your payments, as the API has them.");

paymentsCommand
  .command("show")
  .description(
    "One payment: its status, money, and who takes it (the simulator, or Mollie or Stripe and its id there).",
  )
  .argument("<id>", "the payment's id", parsePaymentId)
  .option("--json", "the payment as one JSON object")
  .action(async (id: number, options: { json?: boolean }) => {
    await showPayment(client(loadCredentials()), id, options);
  });

paymentsCommand
  .command("list")
  .description("Payments, newest first, narrowed by the API's filters.")
  .addOption(new Option("--status <status>", "only this status").choices(["pending", "completed", "failed"]))
  .option("--external-id <id>", "only this external_id (exact)")
  .option("--customer <customer_id>", "only this customer's payments (exact)")
  .addOption(
    new Option("--refund-status <status>", "how much was refunded").choices(["none", "partial", "full"]),
  )
  .option("--currency <code>", "only payments in this currency (ISO 4217, e.g. EUR)")
  .option("--created-from <date>", "created at or after (ISO 8601 date or date-time, UTC)")
  .option("--created-to <date>", "created at or before (ISO 8601 date or date-time, UTC)")
  .option("--limit <n>", "how many (default 10)", parsePositiveInt, 10)
  .option("--page <n>", "start at this page of --limit items (default 1)", parsePositiveInt)
  .option("--json", "one JSON object per line")
  .action(async (options: Parameters<typeof listPayments>[1]) => {
    await listPayments(client(loadCredentials()), options);
  });

program
  .command("refunds")
  .description("Your refunds, as GET /api/refunds lists them.")
  .command("list")
  .description("Refunds, newest first, by status or payment.")
  .addOption(new Option("--status <status>", "only this status").choices(["pending", "succeeded", "failed"]))
  .option("--payment <id>", "only this payment's refunds", parsePositiveInt)
  .option("--limit <n>", "how many (default 10)", parsePositiveInt, 10)
  .option("--page <n>", "start at this page of --limit items (default 1)", parsePositiveInt)
  .option("--json", "one JSON object per line")
  .action(async (options: Parameters<typeof listRefunds>[1]) => {
    await listRefunds(client(loadCredentials()), options);
  });

program
  .command("get")
  .description("GET any API route with your key; prints the response body.")
  .argument("<path>", "e.g. payments/1 or '/api/payments?status=failed' (relative paths are under /api/)")
  .option("--json", "print the body exactly as received, even on a terminal")
  .action(async (path: string, options: ApiRequestOptions) => {
    await requestApi("GET", path, options);
  });

program
  .command("post")
  .description("POST to any API route with your key; prints the response body.")
  .argument("<path>", "e.g. payments or payments/1/refunds (relative paths are under /api/)")
  .option("-d, --data <json>", "the JSON body, checked before it is sent")
  .option("-i, --idempotency-key <key>", "sent as Idempotency-Key: the same key replays the first answer")
  .option("--json", "print the body exactly as received, even on a terminal")
  .action(async (path: string, options: ApiRequestOptions) => {
    await requestApi("POST", path, options);
  });

const logs = program
  .command("logs")
  .description("Your API requests, as the dashboard's Logs page shows them.");
logs
  .command("tail")
  .description("Print the latest API requests, then each new one as it is logged, until Ctrl-C.")
  .addOption(new Option("--status <class>", "only 2xx, 4xx or 5xx answers").choices(["2xx", "4xx", "5xx"]))
  .option("--json", "one JSON object per line")
  .action(async (options: { status?: "2xx" | "4xx" | "5xx"; json?: boolean }) => {
    await tailLogs(client(loadCredentials()), options);
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage);
  const known = exitCodeFor(error);
  if (!known) throw error;
  for (const line of known.lines) process.stderr.write(`Error: ${line}\n`);
  process.exit(known.code);
}
