// How the server and the operators' CLI are compiled (scripts/build-server.mjs, scripts/run-admin.mjs): one
// esbuild setting for both, so the admin a user runs is built as the tests' and production's is.

/** esbuild's options for `entryPoints` into `outdir`. */
export const bundleOptions = (entryPoints, outdir) => ({
  entryPoints,
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  // As `node --conditions=react-server` resolves them: `server-only` is empty on the server.
  conditions: ["react-server"],
  logLevel: "warning",
});
