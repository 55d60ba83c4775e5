import { PHASE_PRODUCTION_BUILD } from "next/constants.js";

/** @type {(phase: string) => import('next').NextConfig} */
const nextConfig = (phase) => ({
  // Loaded from node_modules at run time, not bundled: PGlite reads its WASM and data files from its own
  // package folder, and postgres.js keeps sockets that should not be duplicated across bundles.
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  poweredByHeader: false,
  // Next.js rewrites a loopback host (127.0.0.1, [::1]) to `localhost` in the URL route handlers see, so
  // next-auth built its redirects on http://localhost even with APP_URL (AUTH_URL) on 127.0.0.1, where the
  // session cookie is not sent. Request URLs stay as they came.
  skipProxyUrlNormalize: true,
  // A payer's pages (DESIGN.md, "Checkout"): no referrer (the token is in the URL), never cached. Their
  // Content-Security-Policy carries a nonce per response, so proxy.ts sets it.
  async headers() {
    const payerHeaders = [
      { key: "Referrer-Policy", value: "no-referrer" },
      { key: "Cache-Control", value: "no-store" },
    ];
    // Every page, not-found and error pages included: no content sniffing, never framed (clickjacking;
    // X-Frame-Options for browsers without frame-ancestors). Listed first: where a later rule sets the same
    // header (the payer's policy), the later one wins.
    const everyPage = [
      { key: "X-Content-Type-Options", value: "nosniff" },
      { key: "X-Frame-Options", value: "DENY" },
      { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
    ];
    return [
      { source: "/:path*", headers: everyPage },
      { source: "/pay/:path*", headers: payerHeaders },
      { source: "/l/:path*", headers: payerHeaders },
    ];
  },
  typedRoutes: false,
  experimental: {
    // forbidden(): a page an owner alone may see answers 403 to any other role (app/forbidden.tsx).
    authInterrupts: true,
    // No source maps in a production build: where Node's source-map support is on (tsx, or the test servers'
    // --enable-source-maps), Node parses the map of every chunk it loads (22 MB of maps, 28 MB of heap kept
    // in each server process). Development keeps them for readable stack traces.
    turbopackSourceMaps: phase !== PHASE_PRODUCTION_BUILD,
  },
});

export default nextConfig;
