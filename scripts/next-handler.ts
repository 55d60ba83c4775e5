// Next.js inside scripts/server.ts: the dashboard, sign-in and assets (and in development the API too).
import type http from "node:http";
import type { Duplex } from "node:stream";
import { frameworkRequestEnded, frameworkRequestStarted, startIdleTimer } from "@/lib/platform/async-context";
import { appOrigin } from "@/lib/platform/env";

export type NextHandler = {
  serve: (request: http.IncomingMessage, response: http.ServerResponse) => Promise<void>;
  upgrade: (request: http.IncomingMessage, socket: Duplex, head: Buffer) => Promise<void>;
};

/**
 * Loads and prepares Next.js. `tracksStores`: the process has been tracking the stores entered since it
 * started (trackEnteredStores), and turns them off while Next.js serves nothing.
 */
export async function startNext(dev: boolean, port: number, tracksStores: boolean): Promise<NextHandler> {
  // next-auth builds its redirects (a refused callback, sign-out) on AUTH_URL when it is set, else on the URL
  // Next.js gives the request, which in this custom server is http://localhost:PORT.
  process.env.AUTH_URL ??= appOrigin();
  const { default: next } = await import("next");
  const app = next({ dev, port, dir: process.cwd() });
  const handle = app.getRequestHandler();
  await app.prepare();
  if (tracksStores) startIdleTimer();
  return {
    serve(request, response) {
      if (tracksStores) {
        frameworkRequestStarted();
        response.once("close", frameworkRequestEnded);
      }
      return handle(request, response);
    },
    upgrade: app.getUpgradeHandler(),
  };
}
