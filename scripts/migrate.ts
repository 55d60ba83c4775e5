// `npm run db:migrate`: applies the committed migrations under db/migrations to whichever database the
// environment selects (servers also do this at start).
import "./load-env";
import { closeDatabase, migrateDatabase } from "@/db/client";

try {
  await migrateDatabase();
  console.log("Migrations applied.");
  await closeDatabase();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
