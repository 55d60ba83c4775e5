// db/functions (db/function-files.ts): a database built from the migrations and one upgraded from migration
// 0046 (before any write function) end with the same functions, each defined in a file; a file that fails
// changes nothing; and two processes migrating at once apply a change once (PostgreSQL). On whichever driver
// the run uses.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { DELEGATED_FUNCTIONS, PROPAGATED_FUNCTIONS } from "@/db/citus";
import { functionsFolder, MIGRATION_LOCK_ID } from "@/db/config";
import { FUNCTION_FILES } from "@/db/function-files";
import { freshDatabase, migrations, migrationsUpTo, type FreshDatabase } from "../support/migrations";

/** Every function of the public schema as PostgreSQL would write it out. */
const functions = (database: FreshDatabase) =>
  database.query<{ signature: string; definition: string }>(
    `select p.oid::regprocedure::text as signature, pg_get_functiondef(p.oid) as definition
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'public' order by 1`,
  );

const checksums = (database: FreshDatabase) =>
  database.query<{ file: string; checksum: string }>(
    `select file, checksum from drizzle.function_files order by file`,
  );

/** A copy of db/functions to break or change. */
function functionsCopy(): string {
  const folder = path.join(mkdtempSync(path.join(tmpdir(), "payments-functions-")), "functions");
  cpSync(functionsFolder, folder, { recursive: true });
  return folder;
}

describe("db/functions", () => {
  const opened: FreshDatabase[] = [];
  afterAll(() => Promise.all(opened.map((database) => database.close())));
  const open = async (label: string) => {
    const database = await freshDatabase(label);
    opened.push(database);
    return database;
  };

  it("gives a new database and one upgraded from migration 0046 the same functions, each in a file", async () => {
    const fresh = await open("functions_fresh");
    await fresh.migrate(migrations);
    const upgraded = await open("functions_upgraded");
    await upgraded.migrate(migrationsUpTo(46));
    // Before the write functions: only the partitions' (migration 0022).
    expect((await functions(upgraded)).map(({ signature }) => signature.split("(")[0])).toEqual([
      "create_history_partitions",
    ]);
    await upgraded.migrate(migrations);

    const built = await functions(fresh);
    expect(built.length).toBe(25);
    expect(await functions(upgraded)).toEqual(built);
    expect(await checksums(upgraded)).toEqual(await checksums(fresh));
    expect((await checksums(fresh)).map((row) => row.file).sort()).toEqual([...FUNCTION_FILES].sort());

    // Each function's text is in db/functions, once: none is left to the migrations alone.
    const defined = readdirSync(functionsFolder).flatMap((file) =>
      [
        ...readFileSync(path.join(functionsFolder, file), "utf8").matchAll(
          /^CREATE OR REPLACE FUNCTION (\w+)\(/gm,
        ),
      ].map((match) => match[1]),
    );
    expect(defined.sort()).toEqual(built.map(({ signature }) => signature.split("(")[0]).sort());
    // A second run finds every checksum recorded.
    expect(await fresh.applyFunctions()).toEqual([]);
    // Citus distributes functions by their signatures (db/citus.ts): each names one these files define.
    for (const signature of [...DELEGATED_FUNCTIONS, ...PROPAGATED_FUNCTIONS]) {
      const [row] = await fresh.query<{ found: boolean }>(
        `select to_regprocedure('${signature}') is not null as found`,
      );
      expect(row!.found, signature).toBe(true);
    }
  });

  it("refuses a file with a syntax error by its name and PostgreSQL's message, and changes nothing", async () => {
    const database = await open("functions_broken");
    await database.migrate(migrations);
    const before = { functions: await functions(database), checksums: await checksums(database) };

    const folder = functionsCopy();
    // A change that would apply (refunds.sql comes first), then a file that cannot.
    const refunds = path.join(folder, "refunds.sql");
    writeFileSync(refunds, readFileSync(refunds, "utf8").replace("BEGIN\n", "BEGIN -- changed\n"));
    const checkout = path.join(folder, "checkout.sql");
    writeFileSync(checkout, readFileSync(checkout, "utf8").replace("RETURNS json", "RETURNS json RETURNS"));

    const failure = await database.applyFunctions(folder).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(/^db\/functions\/checkout\.sql \(line \d+\): .*syntax error at or near/);
    expect(await functions(database)).toEqual(before.functions);
    expect(await checksums(database)).toEqual(before.checksums);

    // Mended, the same call applies the changed file, and the change is in the database.
    writeFileSync(checkout, readFileSync(path.join(functionsFolder, "checkout.sql"), "utf8"));
    expect(await database.applyFunctions(folder)).toEqual(["refunds.sql"]);
    const [createRefund] = await database.query<{ definition: string }>(
      `select pg_get_functiondef('create_refund'::regproc) as definition`,
    );
    expect(createRefund!.definition).toContain("BEGIN -- changed");
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "applies a changed file once when two processes migrate at once (PostgreSQL)",
    async () => {
      const database = await open("functions_race");
      await database.migrate(migrations);
      // As if payments.sql had changed since this database last migrated.
      await database.query(
        `update drizzle.function_files set checksum = 'older' where file = 'payments.sql'`,
      );

      const migrate = () =>
        new Promise<{ status: number | null; output: string }>((resolve) => {
          const child = spawn(
            process.execPath,
            ["--import", "tsx", "--conditions=react-server", "scripts/migrate.ts"],
            { env: { ...process.env, DATABASE_URL: database.url }, stdio: ["ignore", "pipe", "pipe"] },
          );
          let output = "";
          child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
          child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
          child.on("close", (status) => resolve({ status, output }));
        });
      // The migration lock held here until both processes try for it, so they race for it once it is let go.
      const holder = postgres(database.url!, { max: 1, onnotice: () => {} });
      let running: Promise<Array<{ status: number | null; output: string }>> | undefined;
      let waitedForLock = false;
      await holder.begin(async (tx) => {
        const [held] = await tx<Array<{ pid: number }>>`
          select pg_advisory_xact_lock(${MIGRATION_LOCK_ID}), pg_backend_pid() as pid`;
        let settled = false;
        running = Promise.all([migrate(), migrate()]).finally(() => (settled = true));
        // Each process opens two connections (the lock's and its work's) before it tries for the lock.
        for (let waited = 0; ; waited += 100) {
          const [others] = await database.query<{ n: string }>(
            `select count(*) as n from pg_stat_activity
             where datname = current_database() and pid not in (pg_backend_pid(), ${held!.pid})`,
          );
          // Settled already: they did not wait for the lock (the assertions below say what they did).
          if (Number(others!.n) >= 4 || settled) break;
          if (waited > 60_000) throw new Error("the two processes never reached the migration lock");
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
        waitedForLock = !settled;
      });
      await holder.end();
      const runs = await running!;

      expect(runs.map((run) => run.status)).toEqual([0, 0]);
      expect(waitedForLock).toBe(true);
      const said = runs.map((run) => /^Function files .*$/m.exec(run.output)?.[0]).sort();
      expect(said).toEqual(["Function files applied: payments.sql.", "Function files unchanged."]);
      const [payments] = await database.query<{ checksum: string }>(
        `select checksum from drizzle.function_files where file = 'payments.sql'`,
      );
      expect(payments!.checksum).toMatch(/^[0-9a-f]{64}$/);
    },
  );
});
