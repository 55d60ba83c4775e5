// `npm run dev` (with --dev) and `npm start`: one node:http server for the whole platform on PORT (3000).
// In production the merchant API (`/api/*` except next-auth's `/api/auth/*`) is answered by lib/api's router
// straight from node:http: Next.js's per-request pipeline costs several milliseconds of CPU, which was most of
// an API call. Everything else (dashboard, sign-in, assets), and in development the API too (through
// app/api/[[...path]], so edits hot-reload), goes to Next.js. The platform itself (configuration check,
// migrations, the inline worker and settler) boots in instrumentation.ts, which Next.js runs in prepare().
import http from "node:http";

const dev = process.argv.includes("--dev");
// Before anything reads the environment: .env files are chosen by mode, as `next dev` / `next start` do.
(process.env as Record<string, string>).NODE_ENV ??= dev ? "development" : "production";
await import("./load-env");
const { default: next } = await import("next");
const { isMerchantApiPath, handleApiRequest } = await import("@/lib/api/router");
const { sendWebResponse, toWebRequest } = await import("@/lib/api/node-bridge");

const port = Number(process.env.PORT ?? 3000);
const app = next({ dev, port, dir: process.cwd() });
const handleWithNext = app.getRequestHandler();
await app.prepare();

async function serveApi(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  let webRequest: Request;
  try {
    webRequest = toWebRequest(request);
  } catch {
    // An unparseable Host header, say: nothing a handler could act on.
    response.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ message: "Bad Request" }));
    return;
  }
  await sendWebResponse(response, await handleApiRequest(webRequest), request.method);
}

const server = http.createServer((request, response) => {
  const pathname = (request.url ?? "/").split("?", 1)[0]!;
  const served = !dev && isMerchantApiPath(pathname) ? serveApi(request, response) : handleWithNext(request, response);
  served.catch((error: unknown) => {
    console.error("Unhandled server error", error);
    if (!response.headersSent) response.writeHead(500, { "Content-Type": "application/json" });
    response.end(JSON.stringify({ message: "Server Error" }));
  });
});
server.on("upgrade", (request, socket, head) => void app.getUpgradeHandler()(request, socket, head));
server.listen(port, () => console.log(`Ready on http://localhost:${port}${dev ? " (development)" : ""}`));

// instrumentation.ts stops the background services and closes the database on these signals; stop
// accepting connections at the same time.
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => server.close());
