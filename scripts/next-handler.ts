// Next.js inside scripts/server.ts: the dashboard, sign-in and assets (and in development the API too).
import type http from "node:http";
import type { Duplex } from "node:stream";
import {
  frameworkRequestEnded,
  frameworkRequestStarted,
  startIdleTimer,
  trackEnteredStores,
} from "@/lib/platform/async-context";

export type NextHandler = {
  serve: (request: http.IncomingMessage, response: http.ServerResponse) => Promise<void>;
  upgrade: (request: http.IncomingMessage, socket: Duplex, head: Buffer) => Promise<void>;
};

/**
 * Loads and prepares Next.js. `besideApi`: this process also answers the API (the embedded database's single
 * process), so in production the stores Next.js enters are turned off while it serves nothing
 * (lib/platform/async-context.ts); they must be tracked from before Next.js loads.
 */
export async function startNext(dev: boolean, besideApi: boolean): Promise<NextHandler> {
  const trackStores = besideApi && !dev;
  if (trackStores) trackEnteredStores();
  const { default: next } = await import("next");
  const app = next({ dev, port: Number(process.env.PORT ?? 3000), dir: process.cwd() });
  const handle = app.getRequestHandler();
  await app.prepare();
  if (trackStores) startIdleTimer();
  return {
    serve(request, response) {
      if (trackStores) {
        frameworkRequestStarted();
        response.once("close", frameworkRequestEnded);
      }
      return handle(request, response);
    },
    upgrade: app.getUpgradeHandler(),
  };
}
