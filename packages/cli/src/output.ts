/** Exit codes, documented in the README and in `payments --help`. */
export const EXIT = {
  ok: 0,
  /** The API refused the request (4xx other than 401), or a local app could not be reached where required. */
  refused: 1,
  /** A bad command line: an unknown option, a malformed URL, a missing value. */
  usage: 2,
  /** No key, or the API did not accept it (401). */
  unauthenticated: 3,
  /** The API could not be reached. */
  unreachable: 4,
} as const;

/** A failure the user can act on: printed as one line, never as a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** Colour only on a terminal, and never with NO_COLOR set (https://no-color.org). */
const useColor = process.stdout.isTTY === true && !process.env.NO_COLOR;
const paint = (code: number) => (text: string) => (useColor ? `\u001b[${code}m${text}\u001b[0m` : text);
export const color = { green: paint(32), red: paint(31), yellow: paint(33), dim: paint(2), bold: paint(1) };

/** `2026-11-25T21:00:00.000Z`: every time the CLI prints is ISO 8601, in UTC. */
export function timestamp(date: Date | string = new Date()): string {
  return new Date(date).toISOString();
}

/** `1 payment`, `2 payments`: every count the CLI prints agrees with its noun. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** One line for people, or one JSON object per line with --json. */
export function emit(json: boolean, record: Record<string, unknown>, human: string): void {
  process.stdout.write(`${json ? JSON.stringify(record) : human}\n`);
}

/** A failed payment's failure_code and failure_reason (in its data or an event's); null for anything else. */
export function paymentFailure(
  data: unknown,
): { failure_code: string; failure_reason: string | null } | null {
  const payment = (data ?? {}) as { failure_code?: unknown; failure_reason?: unknown };
  if (typeof payment.failure_code !== "string") return null;
  const reason = typeof payment.failure_reason === "string" ? payment.failure_reason : null;
  return { failure_code: payment.failure_code, failure_reason: reason };
}

/** ` (card_declined: Your card was declined.)` after a failed payment's line; nothing after any other. */
export function failureSuffix(data: unknown): string {
  const failure = paymentFailure(data);
  if (!failure) return "";
  return ` (${failure.failure_code}${failure.failure_reason ? `: ${failure.failure_reason}` : ""})`;
}
