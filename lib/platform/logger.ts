import pino from "pino";

/** Drizzle puts a failed statement's parameters (token hashes, customer ids) in its message and stack. */
function withoutParameters(text: string | undefined): string | undefined {
  return text?.replace(/\nparams: [^\n]*/g, "\nparams: [not logged]");
}

/**
 * An error as a log line may show it: type, message, code and stack, and the same of its cause, with query
 * parameters removed. No other property is copied (postgres.js errors carry `parameters`, for instance).
 */
export function errorForLog(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: withoutParameters(error.message),
    ...(typeof code === "string" ? { code } : {}),
    stack: withoutParameters(error.stack),
    ...(error.cause !== undefined && depth < 3 ? { cause: errorForLog(error.cause, depth + 1) } : {}),
  };
}

/**
 * The platform's structured log: one JSON object per line on stdout. An API request's lines carry its
 * `req_id`, passed explicitly (an AsyncLocalStorage would tax every promise on Node 20's async hooks: the
 * list endpoint lost a third of its throughput to it). Secrets are never passed to it; `errorForLog` keeps
 * query parameters out of errors.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? "info",
  serializers: { err: errorForLog },
});
