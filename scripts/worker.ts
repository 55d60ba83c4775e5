// `npm run worker`: a webhook worker and settler as their own process. Any number may run against one
// PostgreSQL: deliveries and payments are claimed with SKIP LOCKED. Stops gracefully on SIGINT/SIGTERM.
// With WORKER_METRICS_PORT it also answers /healthz, /readyz and /metrics (its deliveries are counted here,
// not in the web processes).
import "./load-env";
import http from "node:http";
import { API_ERRORS } from "@/lib/api/api-errors";
import { sendApiResponse } from "@/lib/api/node-bridge";
import { operatorRoute } from "@/lib/api/operator-routes";
import { jsonResponse } from "@/lib/api/responses";
import { startPlatform, stopPlatformOnSignals } from "@/lib/platform/background-services";
import { getEnv } from "@/lib/platform/env";
import { workerServices } from "@/lib/worker/services";

await startPlatform(workerServices());
const metricsPort = getEnv().WORKER_METRICS_PORT;
const operatorServer = metricsPort
  ? http
      .createServer((request, response) => {
        const pathname = (request.url ?? "/").split("?", 1)[0]!;
        const answer =
          operatorRoute(pathname, request.headers.authorization ?? null) ??
          Promise.resolve(jsonResponse(404, { message: API_ERRORS.notFound.message }));
        void answer
          .catch(() => jsonResponse(500, { message: API_ERRORS.serverError.message }))
          .then((result) => sendApiResponse(response, result, request.method));
      })
      .listen(metricsPort)
  : undefined;
stopPlatformOnSignals(() => {
  console.log("Stopping: finishing the sends under way…");
  operatorServer?.close();
});
// Said once the signals are handled: a supervisor (or a test) that stops it on this line gets a graceful stop,
// never the default SIGTERM's sudden exit (CI saw it, the worker descheduled between the two on a loaded machine).
console.log(
  `Webhook worker running (pid ${process.pid}${metricsPort ? `, metrics on port ${metricsPort}` : ""}).`,
);
