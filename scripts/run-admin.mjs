// `npm run admin -- <command>`: the operators' CLI, run compiled as the server is. Under tsx each run compiled
// its TypeScript first (6.6-7.0 s for --help, against 0.3-0.8 s for `node -e 0`); compiled ahead, it starts as
// fast as the `payments` CLI (BENCHMARKS.md, "CLI"). The bundle (dist/admin/) is made again only when a source
// file is newer than it: after a pull or an edit, the first run compiles (about a second), the next ones do not.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const bundle = "dist/admin/admin.js";
const SOURCES = ["scripts", "lib", "db", "packages/sdk/src"];

/** The newest modification time under the source folders (a few hundred files: milliseconds). */
function newestSource() {
  let newest = 0;
  const walk = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const file = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(file);
      else newest = Math.max(newest, statSync(file).mtimeMs);
    }
  };
  for (const directory of SOURCES) walk(directory);
  return newest;
}

const builtAt = (() => {
  try {
    return statSync(bundle).mtimeMs;
  } catch {
    return 0;
  }
})();
if (builtAt < newestSource()) {
  const { build } = await import("esbuild");
  const { bundleOptions } = await import("./bundle-options.mjs");
  await build(bundleOptions(["scripts/admin.ts"], path.dirname(bundle)));
}
await import(pathToFileURL(path.resolve(bundle)).href);
