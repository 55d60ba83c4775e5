// `npm run build`, after tsc's type check: src/ and everything it imports (the SDK, commander, openapi-fetch,
// standardwebhooks, eventsource-parser) bundled by esbuild into dist/index.js, which bin/payments.js imports.
// Node then reads, resolves and links one module instead of some forty (17 ms of the command's start before).
// Not split per command: the SDK imports standardwebhooks for every command anyway, and loading listen's
// code only when it runs measured no different for `payments balance` (docs/benchmarks-log.md, "The CLI's start").
import { rmSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const here = import.meta.dirname;
const outdir = path.join(here, "dist");
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [path.join(here, "src/index.ts")],
  outdir,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // commander and standardwebhooks are CommonJS: their require() of node's own modules needs a real require.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
  // For reading a bug's stack trace with `node --enable-source-maps`.
  sourcemap: "linked",
  logLevel: "warning",
});
