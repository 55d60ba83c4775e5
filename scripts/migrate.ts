// `npm run db:migrate`: applies the committed migrations under db/migrations, then the function files of
// db/functions that changed (db/function-files.ts), to whichever database the environment selects (servers
// also do this at start).
import "./load-env";
import { closeDatabase, migrateDatabase } from "@/db/client";

try {
  const applied = await migrateDatabase();
  console.log("Migrations applied.");
  console.log(
    applied.length > 0 ? `Function files applied: ${applied.join(", ")}.` : "Function files unchanged.",
  );
  await closeDatabase();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
