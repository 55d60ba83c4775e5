import type { Payments } from "@payments-platform/sdk";
import type { Command } from "commander";
import { parsePositiveInt } from "./lists.js";
import { emit } from "./output.js";

// `payments sandboxes create|list|delete`, with an account key (`pay_acct_…`, from `payments login`): a sandbox
// per CI run, made before the tests and deleted after them (docs/testing.md).

async function createSandbox(
  client: Payments,
  options: { name: string; clock?: string; json?: boolean },
): Promise<void> {
  const sandbox = await client.sandboxes.create({
    name: options.name,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const clock = sandbox.clock ? ` on a test clock at ${sandbox.clock}` : "";
  emit(
    options.json === true,
    { type: "sandbox", ...sandbox },
    `Sandbox ${sandbox.id} "${sandbox.name}" made${clock}. Its test key, shown only now:\n${sandbox.token}`,
  );
}

async function listSandboxes(client: Payments, options: { json?: boolean }): Promise<void> {
  const sandboxes = await client.sandboxes.list();
  for (const sandbox of sandboxes)
    emit(
      options.json === true,
      { type: "sandbox", ...sandbox },
      `${sandbox.id}  ${sandbox.name}  made ${sandbox.created_at}`,
    );
}

async function deleteSandbox(client: Payments, id: number, options: { json?: boolean }): Promise<void> {
  await client.sandboxes.delete(id);
  emit(
    options.json === true,
    { type: "sandbox", id, deleted: true },
    `Sandbox ${id} deleted, with all its data.`,
  );
}

/** The commands, on `program`, each with the client its credentials make. */
export function addSandboxCommands(program: Command, client: () => Payments): void {
  const sandboxes = program
    .command("sandboxes")
    .description("Sandboxes of your account, for test runs (needs an account key, pay_acct_…).");
  sandboxes
    .command("create")
    .description("Make a sandbox; prints its id and its test key (shown only once).")
    .requiredOption("--name <name>", "what the sandbox is for, e.g. ci-1234")
    .option("--clock <instant>", "start a test clock there (2026-10-01 or a date-time, up to 400 days back)")
    .option("--json", "the sandbox and its key as one JSON object")
    .action(async (options: { name: string; clock?: string; json?: boolean }) =>
      createSandbox(client(), options),
    );
  sandboxes
    .command("list")
    .description("The account's sandboxes, the first (Test) first.")
    .option("--json", "one JSON object per sandbox")
    .action(async (options: { json?: boolean }) => listSandboxes(client(), options));
  sandboxes
    .command("delete")
    .description("Delete a sandbox and everything in it.")
    .argument("<id>", "the sandbox's id", parsePositiveInt)
    .option("--json", "the outcome as one JSON object")
    .action(async (id: number, options: { json?: boolean }) => deleteSandbox(client(), id, options));
}
