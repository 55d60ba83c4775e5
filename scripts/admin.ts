// `npm run admin -- <command> [options] [--json]`: operator commands. With --json, stdout is exactly one JSON
// object; any failure exits non-zero with the reason on stderr and changes nothing.
import { parseArgs } from "node:util";
import { DomainError } from "@/lib/platform/errors";
import { adminCommandSpecs, type AdminCommandSpec } from "./admin-command-specs";

class UsageError extends Error {}
/** `--help`: the usage on stdout, and success. */
class HelpRequested extends Error {}

function usage(): string {
  const lines = Object.entries(adminCommandSpecs).map(([name, command]) => {
    const options = Object.entries(command.options)
      .map(([option, spec]) => (spec.required ? `--${option} <${option}>` : `[--${option} <${option}>]`))
      .join(" ");
    return `  ${name} ${options} [--json]\n      ${command.summary}`;
  });
  return `Usage: npm run admin -- <command> [options]\n\nCommands:\n${lines.join("\n")}`;
}

function parseCommandLine(argv: string[]): {
  name: string;
  command: AdminCommandSpec;
  options: Record<string, string | boolean | undefined>;
  json: boolean;
} {
  const [name, ...rest] = argv;
  if (name === "--help" || name === "-h" || name === "help") throw new HelpRequested(usage());
  const command = name ? adminCommandSpecs[name] : undefined;
  if (!name || !command) throw new UsageError(name ? `Unknown command "${name}".\n\n${usage()}` : usage());
  let values: Record<string, string | boolean | undefined>;
  try {
    const parsed = parseArgs({
      args: rest,
      options: {
        ...Object.fromEntries(
          Object.entries(command.options).map(([key, spec]) => [key, { type: spec.type }]),
        ),
        json: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    });
    values = parsed.values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${usage()}`);
  }
  const missing = Object.entries(command.options).filter(
    ([key, spec]) => spec.required && values[key] === undefined,
  );
  if (missing.length > 0)
    throw new UsageError(`${name}: missing ${missing.map(([key]) => `--${key}`).join(", ")}.`);
  return { name, command, options: values, json: values.json === true };
}

function describeError(error: unknown): string {
  if (error instanceof DomainError && error.fieldErrors) {
    return Object.entries(error.fieldErrors)
      .map(([field, messages]) => `${field}: ${messages.join(" ")}`)
      .join("\n");
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * A result as lines a person reads: `key: value`, a list as one indented line per item (`currency EUR,
 * balance 12.50`), an object as its keys indented below (never `[object Object]`).
 */
function forPeople(value: object, indent = ""): string {
  return Object.entries(value)
    .map(([key, item]: [string, unknown]) => {
      if (Array.isArray(item))
        return item.length === 0
          ? `${indent}${key}: none`
          : `${indent}${key}:\n${item.map((entry: unknown) => `${indent}  - ${inline(entry)}`).join("\n")}`;
      if (item !== null && typeof item === "object")
        return `${indent}${key}:\n${forPeople(item, `${indent}  `)}`;
      return `${indent}${key}: ${String(item)}`;
    })
    .join("\n");
}

const inline = (entry: unknown): string =>
  entry !== null && typeof entry === "object"
    ? Object.entries(entry)
        .map(
          ([key, value]: [string, unknown]) =>
            `${key} ${typeof value === "object" || typeof value === "function" ? JSON.stringify(value) : String(value as string)}`,
        )
        .join(", ")
    : String(entry);

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (error instanceof HelpRequested) {
      console.log(error.message);
      return 0;
    }
    console.error(describeError(error));
    return 2;
  }
  // Only now the environment, the database and the domain: the usage and a bad command line need none.
  await import("./load-env");
  const { closeDatabase, getDb, migrateDatabase } = await import("@/db/client");
  try {
    const { adminCommands } = await import("./admin-commands");
    const command = adminCommands[parsed.name]!;
    await migrateDatabase();
    const result = await command.run(getDb(), parsed.options);
    console.log(parsed.json ? JSON.stringify(result) : forPeople(result));
    return command.failed?.(result) ? 1 : 0;
  } catch (error) {
    console.error(`${parsed.name} failed: ${describeError(error)}`);
    return 1;
  } finally {
    await closeDatabase().catch(() => undefined);
  }
}

process.exitCode = await main();
