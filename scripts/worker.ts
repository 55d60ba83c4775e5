// `npm run worker`: a webhook worker and settler as their own process. Any number may run against one
// PostgreSQL: deliveries and payments are claimed with SKIP LOCKED. Stops gracefully on SIGINT/SIGTERM.
import "./load-env";
import { startPlatform, stopPlatformOnSignals, workerServices } from "@/lib/platform/background-services";

await startPlatform(workerServices());
console.log(`Webhook worker running (pid ${process.pid}).`);
stopPlatformOnSignals(() => console.log("Stopping: finishing the sends under way…"));
