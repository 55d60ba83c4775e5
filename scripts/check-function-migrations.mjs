// A migration holds tables, indexes and data changes, never a function's text (DESIGN.md, "Database"): since
// migration 0056 each function lives once in db/functions/, applied when it changes (db/function-files.ts). A
// migration numbered above 0056 that creates or replaces a function or procedure fails this check; one that
// drops a function that is gone is fine. Run by `npm run lint`.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const migrations = path.join(root, "db", "migrations");
/** The last migration that may still define a function: those up to it keep what they did. */
const LAST_WITH_FUNCTIONS = 56;

/** The SQL without its comments, so a comment that names `CREATE FUNCTION` is no definition. */
const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/--[^\n]*/g, "");

const problems = [];
let checked = 0;
for (const name of readdirSync(migrations).sort()) {
  const number = /^(\d{4})_.*\.sql$/.exec(name)?.[1];
  if (!number || Number(number) <= LAST_WITH_FUNCTIONS) continue;
  checked++;
  const text = withoutComments(readFileSync(path.join(migrations, name), "utf8"));
  for (const match of text.matchAll(/\bcreate\s+(or\s+replace\s+)?(function|procedure)\s+("?[\w.]+"?)/gi))
    problems.push(
      `db/migrations/${name}: ${match[0].replace(/\s+/g, " ")}; its text belongs in db/functions/`,
    );
}

if (problems.length > 0) {
  console.error(`A migration defines a function:\n${problems.map((problem) => `- ${problem}`).join("\n")}`);
  process.exit(1);
}
console.log(`Functions: none defined in the ${checked} migrations after 0056 (they live in db/functions/).`);
