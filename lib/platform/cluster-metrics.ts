import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry, type PrometheusContentType, type Registry } from "prom-client";

/**
 * `npm start` on PostgreSQL runs several processes on one port, and a scrape reaches whichever one accepted
 * its connection: alone, each process's counters would seem to jump back and forth between scrapes. So the
 * process that gets `/metrics` asks the primary, which gathers every process's registry with prom-client's
 * cluster protocol (AggregatorRegistry) and answers with the aggregate (counters and histograms summed).
 */
const SCRAPE = "payments:metrics-scrape";
const SCRAPED = "payments:metrics-scraped";
/** Longer than prom-client's own 5 s wait for the processes' answers. */
const SCRAPE_TIMEOUT_MS = 6000;

type ScrapeRequest = { type: typeof SCRAPE; id: number };
type ScrapeAnswer = { type: typeof SCRAPED; id: number; text?: string; error?: string };

/** Whether this process is one of `npm start`'s cluster, whose metrics are read through the primary. */
export function inCluster(): boolean {
  return cluster.isWorker;
}

/** In every process of the cluster: answers the primary's requests for this process's metrics. */
export function shareMetricsWithPrimary(registry: Registry<PrometheusContentType>): void {
  AggregatorRegistry.setRegistries([registry]);
  // Its constructor adds the listener that answers the primary.
  new AggregatorRegistry<PrometheusContentType>();
}

let aggregator: AggregatorRegistry<PrometheusContentType> | undefined;

/** In the primary: answers a process's scrape with the metrics of all of them. */
export function answerScrapes(worker: Worker): void {
  worker.on("message", (message: ScrapeRequest) => {
    if (message?.type !== SCRAPE) return;
    const reply = (answer: Pick<ScrapeAnswer, "text" | "error">) => {
      if (worker.isConnected()) worker.send({ type: SCRAPED, id: message.id, ...answer });
    };
    (aggregator ??= new AggregatorRegistry<PrometheusContentType>()).clusterMetrics().then(
      (text) => reply({ text }),
      (error: Error) => reply({ error: error.message }),
    );
  });
}

let nextScrapeId = 0;

/** In a process of the cluster: the metrics of all its processes, gathered by the primary. */
export function scrapeCluster(): Promise<string> {
  const id = nextScrapeId++;
  return new Promise((resolve, reject) => {
    const onMessage = (message: ScrapeAnswer) => {
      if (message?.type !== SCRAPED || message.id !== id) return;
      stopWaiting();
      if (message.text !== undefined) resolve(message.text);
      else reject(new Error(`The primary could not gather the metrics: ${message.error}`));
    };
    const timer = setTimeout(() => {
      stopWaiting();
      reject(new Error("The primary did not answer a metrics scrape in time"));
    }, SCRAPE_TIMEOUT_MS);
    const stopWaiting = () => {
      clearTimeout(timer);
      process.off("message", onMessage);
    };
    process.on("message", onMessage);
    process.send!({ type: SCRAPE, id } satisfies ScrapeRequest);
  });
}
