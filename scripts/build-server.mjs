// `npm run build`'s last step: scripts/server.ts and what it imports, compiled into dist/server/ for `npm start`;
// scripts/admin.ts beside it (dist/server/admin.js), which the tests run as a child process many times.
// Under tsx every module of a booting process went through its loader hooks (resolved off-thread, then
// transformed): an API process took 4-5 s to boot, so a client with a 10 s timeout failed while a crashed
// process was replaced. Compiled ahead, it boots in about a second (docs/benchmarks-log.md, "Boot to ready").
// Packages stay external (node_modules as installed); dynamic imports become chunks of their own, so what a
// process never imports (PGlite on PostgreSQL, Next.js in an API process) is never loaded.
import { rmSync } from "node:fs";
import { build } from "esbuild";
import { bundleOptions } from "./bundle-options.mjs";

const outdir = "dist/server";
rmSync(outdir, { recursive: true, force: true });
await build({
  ...bundleOptions(["scripts/server.ts", "scripts/admin.ts"], outdir),
  // For reading a stack trace with `node --enable-source-maps`; not turned on in production (memory).
  sourcemap: "linked",
});
