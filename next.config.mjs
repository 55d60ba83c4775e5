/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded from node_modules at run time, not bundled: PGlite reads its WASM and data files from its own
  // package folder, and postgres.js keeps sockets that should not be duplicated across bundles.
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
