import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { storeCursor, storedCursor, type Credentials } from "./config.js";
import { followEventStream } from "./event-stream.js";
import { CliError, color, emit, EXIT, failureSuffix, paymentFailure, timestamp } from "./output.js";

export type ListenOptions = {
  /** Required unless --print-secret. */
  forwardTo?: string;
  events?: string;
  printSecret?: boolean;
  json?: boolean;
  /** Start after this event instead of the stored cursor. */
  after?: string;
  /** Start with new events: skip what came while no listen ran. */
  fromNow?: boolean;
};

/** How long the local app has to answer a forwarded event. */
const FORWARD_TIMEOUT_MS = 10_000;

/**
 * The signing secret for forwarded events: derived from the API key, so it is the same on every run with
 * that key (the local app keeps one secret in its config) and never leaves this machine.
 */
export function listenSecret(apiKey: string): string {
  return `whsec_${createHmac("sha256", apiKey).update("payments listen: local signing secret").digest("base64")}`;
}

function parseForwardUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(
      `--forward-to is not a URL: ${value}. Example: http://localhost:4242/webhooks`,
      EXIT.usage,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new CliError(`--forward-to must be an http:// or https:// URL (got ${url.protocol}).`, EXIT.usage);
  return url;
}

/** POSTs one event to the local app, signed per Standard Webhooks; the answer's status and time, or why none. */
async function forward(url: URL, signer: Webhook, event: { id: string; body: string }) {
  const sentAt = new Date();
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "payments-cli",
        "webhook-id": event.id,
        "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
        "webhook-signature": signer.sign(event.id, sentAt, event.body),
      },
      body: event.body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return { status: response.status, ms: Math.round(performance.now() - started), error: null };
  } catch (error) {
    const cause =
      error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return { status: null, ms: Math.round(performance.now() - started), error: cause };
  }
}

/** Where a run starts: --after, nothing with --from-now, else the cursor the last run with this key left. */
function startingPoint(credentials: Credentials, options: ListenOptions): string | null {
  if (options.after !== undefined && options.fromNow)
    throw new CliError("Use --after or --from-now, not both.", EXIT.usage);
  if (options.after !== undefined) {
    if (!/^evt_[\w-]{1,64}$/.test(options.after))
      throw new CliError(`--after takes an event id (evt_…), not ${options.after}.`, EXIT.usage);
    return options.after;
  }
  return options.fromNow ? null : storedCursor(credentials);
}

/**
 * `payments listen`: forwards every event to a local URL as it happens, until Ctrl-C. After each event is
 * forwarded its id is stored (per API URL and key), so a run started after a crash or a reboot first forwards
 * what came meanwhile. An event whose forward was under way when the process died is forwarded again
 * (at-least-once, as webhooks are: receivers dedupe by webhook-id).
 */
export async function listen(credentials: Credentials, options: ListenOptions): Promise<void> {
  const secret = listenSecret(credentials.apiKey);
  if (options.printSecret) {
    process.stdout.write(`${secret}\n`);
    return;
  }
  if (options.forwardTo === undefined)
    throw new CliError(
      "listen needs --forward-to <url>, e.g. --forward-to http://localhost:4242/webhooks (or --print-secret alone).",
      EXIT.usage,
    );
  const after = startingPoint(credentials, options);
  const url = parseForwardUrl(options.forwardTo);
  const types = options.events
    ? options.events
        .split(",")
        .map((type) => type.trim())
        .filter(Boolean)
    : null;
  const signer = new Webhook(secret);
  const json = options.json === true;
  const stop = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
  emit(
    json,
    { type: "ready", secret, forward_to: url.href, events: types ?? "all", after },
    `${color.bold("Ready!")} Your webhook signing secret is ${color.bold(secret)} (^C to quit)\nForwarding ${types ? types.join(", ") : "all events"} to ${url.href}${after ? `, starting after ${after}` : ""}`,
  );
  await followEventStream(
    credentials,
    { types, signal: stop.signal, after },
    {
      onConnected: (resumedAfter) =>
        emit(
          json,
          { type: "connected", resumed_after: resumedAfter },
          color.dim(
            `${timestamp()}   connected${resumedAfter ? `, replaying events after ${resumedAfter}` : ""}`,
          ),
        ),
      onDisconnected: (reason, delayMs) =>
        emit(
          json,
          { type: "disconnected", reason, retry_in_ms: delayMs },
          color.yellow(
            `${timestamp()}   disconnected (${reason}); reconnecting in ${(delayMs / 1000).toFixed(1)} s`,
          ),
        ),
      onEvent: async (event) => {
        // A failed payment's line says why (the body is the webhook's: {event, data}).
        const { data } = JSON.parse(event.body) as { data?: unknown };
        emit(
          json,
          { type: "event", id: event.id, event: event.type, ...paymentFailure(data) },
          `${timestamp()}   --> ${event.type} [${event.id}]${failureSuffix(data)}`,
        );
        const answer = await forward(url, signer, event);
        // Stored before it is reported: a line saying "forwarded" means a restart will not send it again.
        storeCursor(credentials, event.id);
        const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
        const status = answer.status === null ? `error: ${answer.error}` : String(answer.status);
        emit(
          json,
          {
            type: "forwarded",
            id: event.id,
            status: answer.status,
            error: answer.error,
            latency_ms: answer.ms,
          },
          `${timestamp()}   <-- [${(ok ? color.green : color.red)(status)}] POST ${url.href} [${event.id}] ${answer.ms} ms`,
        );
      },
    },
  );
}
