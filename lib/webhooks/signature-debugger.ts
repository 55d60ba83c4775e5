import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { events, webhookEndpoints } from "@/db/schema";
import { decryptSecret } from "@/lib/platform/encryption";
import { unownedRowError } from "@/lib/platform/ownership";
import { jsonNumber, messages, parseInput } from "@/lib/platform/validation";
import { PREVIOUS_SECRET_TTL_MS } from "./endpoint-secrets";
import { bodyDifference, CRLF_READ_AS_LF, withLfLineEndings } from "./pasted-body";
import { webhookBody } from "./send";

/** Why a delivery does not verify: DESIGN.md's codes, null when it does. */
export type VerificationCode =
  | "missing_header"
  | "malformed_signature"
  | "timestamp_out_of_tolerance"
  | "body_mismatch"
  | "previous_secret"
  | "other_endpoint"
  | "bad_signature"
  | "timestamp_mismatch";

export type Verification = { valid: boolean; code: VerificationCode | null; reason: string };

/** Standard Webhooks' tolerance, as the official library applies it. */
const TOLERANCE_SECONDS = 5 * 60;
const HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;

export const verifyInputSchema = z.object({
  endpoint_id: jsonNumber(
    z
      .number({ error: messages.integer("endpoint_id") })
      .int({ error: messages.integer("endpoint_id") })
      .positive({ error: messages.integer("endpoint_id") }),
  ),
  headers: z.record(z.string(), z.union([z.string(), z.array(z.string())]), {
    error: "The headers field must be an object of header names to values.",
  }),
  body: z
    .string({ error: messages.string("body") })
    .max(1_000_000, messages.max("body", "1000000 characters")),
});

type Candidate = {
  secret: string;
  kind: "current" | "previous" | "other";
  endpointId: number;
  /** How the receiver should know it: its URL, or an inbox's description. */
  endpointName: string;
  rotatedAt?: Date;
};

export type VerifyOptions = {
  /**
   * Judge the timestamp as of this moment instead of now: a stored capture is judged as it was received
   * (the debugger opened from an inbox capture), not as too old because it was received yesterday.
   */
  receivedAt?: Date;
};

function endpointName(endpoint: {
  id: number;
  kind: string;
  url: string;
  description: string | null;
}): string {
  if (endpoint.kind === "inbox")
    return `inbox ${endpoint.id}${endpoint.description ? ` “${endpoint.description}”` : ""}`;
  return `${endpoint.url}${endpoint.description ? ` (“${endpoint.description}”)` : ""}`;
}

/** Is `signatures` (the header's space-separated `v1,…` list) a signature of this message with `secret`? */
function signedWith(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
  signatures: string[],
): boolean {
  const expected = new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
  return signatures.includes(expected);
}

const verdict = (code: VerificationCode | null, reason: string): Verification => ({
  valid: code === null,
  code,
  reason,
});

/**
 * The webhook-timestamp this endpoint's delivery of event `id` was really signed with, when it differs from
 * `given` and `signedAt` accepts it: the seconds of its attempts (a delivery is signed as it is sent) and of
 * its inbox captures. Null when none.
 */
async function sentTimestamp(
  db: Executor,
  merchantId: number,
  endpointId: number,
  id: string,
  given: number,
  signedAt: (timestamp: number) => boolean,
): Promise<number | null> {
  const rows = await selectRows<{ sent: string | number }>(
    db,
    sql`select floor(extract(epoch from a.attempted_at))::bigint as sent
        from webhook_deliveries d join webhook_attempts a on a.delivery_id = d.id and a.merchant_id = d.merchant_id
        where d.merchant_id = ${merchantId} and d.endpoint_id = ${endpointId} and d.event_id = ${id}
        union
        select (headers->>'webhook-timestamp')::bigint from webhook_inbox_captures
        where merchant_id = ${merchantId} and endpoint_id = ${endpointId} and event_id = ${id}
          and headers->>'webhook-timestamp' ~ '^[0-9]{1,12}$'
        limit 100`,
  );
  for (const row of rows) {
    const sent = Number(row.sent);
    if (sent !== given && signedAt(sent)) return sent;
  }
  return null;
}

/**
 * The signature debugger: says whether a delivery as a receiver got it verifies against the endpoint's
 * secret, and if not, why, as precisely as the platform can tell (it holds every secret, never shows one).
 */
export async function verifyDelivery(
  db: Executor,
  merchantId: number,
  input: unknown,
  options: VerifyOptions = {},
): Promise<Verification> {
  const { endpoint_id: endpointId, headers: given, body: pasted } = parseInput(verifyInputSchema, input);
  const body = withLfLineEndings(pasted);
  const endpoints = await db
    .select({
      id: webhookEndpoints.id,
      merchantId: webhookEndpoints.merchantId,
      kind: webhookEndpoints.kind,
      url: webhookEndpoints.url,
      description: webhookEndpoints.description,
      secret: webhookEndpoints.secretCiphertext,
      previous: webhookEndpoints.previousSecretCiphertext,
      previousExpiresAt: webhookEndpoints.previousSecretExpiresAt,
    })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.merchantId, merchantId));
  const endpoint = endpoints.find((candidate) => candidate.id === endpointId);
  if (!endpoint) throw await unownedRowError(db, "webhook_endpoints", endpointId, merchantId);

  const headers = Object.fromEntries(
    Object.entries(given).map(([name, value]) => [
      name.toLowerCase(),
      Array.isArray(value) ? value.join(" ") : value,
    ]),
  );
  const missing = HEADERS.filter((name) => !headers[name]?.trim());
  if (missing.length > 0)
    return verdict(
      "missing_header",
      `The ${missing.join(", ")} header${missing.length > 1 ? "s are" : " is"} missing.`,
    );
  const id = headers["webhook-id"]!.trim();
  const timestampText = headers["webhook-timestamp"]!.trim();
  const signatures = headers["webhook-signature"]!.trim().split(/\s+/);
  if (!/^\d{1,12}$/.test(timestampText))
    return verdict(
      "malformed_signature",
      "webhook-timestamp must be whole seconds since 1970 (e.g. 1764064800).",
    );
  const malformed = signatures.find((signature) => !/^v1,[A-Za-z0-9+/]{43}=$/.test(signature));
  if (malformed)
    return verdict(
      "malformed_signature",
      `webhook-signature must be space-separated "v1,<base64 HMAC-SHA256>" entries; "${malformed.slice(0, 20)}" is not one.`,
    );
  const timestamp = Number(timestampText);

  const name = endpointName(endpoint);
  const candidates: Candidate[] = [
    { secret: decryptSecret(endpoint.secret), kind: "current", endpointId, endpointName: name },
  ];
  if (endpoint.previous)
    candidates.push({
      secret: decryptSecret(endpoint.previous),
      kind: "previous",
      endpointId,
      endpointName: name,
      rotatedAt: endpoint.previousExpiresAt
        ? new Date(endpoint.previousExpiresAt.getTime() - PREVIOUS_SECRET_TTL_MS)
        : undefined,
    });
  for (const other of endpoints.filter((candidate) => candidate.id !== endpointId)) {
    const otherName = endpointName(other);
    candidates.push({
      secret: decryptSecret(other.secret),
      kind: "other",
      endpointId: other.id,
      endpointName: otherName,
    });
    if (other.previous)
      candidates.push({
        secret: decryptSecret(other.previous),
        kind: "other",
        endpointId: other.id,
        endpointName: otherName,
      });
  }
  const matchOf = (text: string) =>
    candidates.find((candidate) => signedWith(candidate.secret, id, timestamp, text, signatures));
  // As given first: only a body that does not verify so is read with LF line endings, and the answer says so.
  const exact = matchOf(pasted);
  const match = exact ?? (body === pasted ? undefined : matchOf(body));
  const verdictOf = (code: VerificationCode | null, reason: string) =>
    verdict(code, match && !exact ? `${reason} ${CRLF_READ_AS_LF}` : reason);

  if (match?.kind === "current") {
    const reference = options.receivedAt ?? new Date();
    const asReceived = options.receivedAt
      ? ` when it was received (${options.receivedAt.toISOString()})`
      : "";
    const skew = Math.round(reference.getTime() / 1000 - timestamp);
    if (Math.abs(skew) > TOLERANCE_SECONDS)
      return verdictOf(
        "timestamp_out_of_tolerance",
        `The signature is right, but webhook-timestamp was ${Math.abs(skew)} seconds ${skew > 0 ? "old" : "in the future"}${asReceived}; receivers accept ${TOLERANCE_SECONDS} seconds either way. Verify on arrival, and check the receiver's clock.`,
      );
    return verdictOf(
      null,
      options.receivedAt
        ? `The signature verifies with this endpoint's current secret, and its timestamp was within ${TOLERANCE_SECONDS} seconds${asReceived}.`
        : "The signature verifies with this endpoint's current secret.",
    );
  }
  if (match?.kind === "previous")
    return verdictOf(
      "previous_secret",
      `Signed with this endpoint's previous secret${match.rotatedAt ? `, replaced at ${match.rotatedAt.toISOString()}` : ""}: update the receiver to the current secret.`,
    );
  if (match?.kind === "other")
    return verdictOf(
      "other_endpoint",
      `Signed with the secret of another of your endpoints, ${match.endpointName} (endpoint ${match.endpointId}): the receiver holds that endpoint's secret instead of this one's.`,
    );
  const sent = await sentTimestamp(db, merchantId, endpointId, id, timestamp, (sentAt) =>
    candidates.some(
      (candidate) => candidate.kind !== "other" && signedWith(candidate.secret, id, sentAt, body, signatures),
    ),
  );
  if (sent !== null)
    return verdict(
      "timestamp_mismatch",
      `The signature is this endpoint's, made for webhook-timestamp ${sent} (${new Date(sent * 1000).toISOString()}), when ${id} was sent; the header says ${timestamp}. The timestamp was changed after signing (a proxy, a replay tool, a test fixture): keep the headers exactly as received.`,
    );
  const [event] = await db
    .select({ type: events.type, data: events.data })
    .from(events)
    .where(and(eq(events.id, id), eq(events.merchantId, merchantId)));
  if (event) {
    const signed = webhookBody(event.type, event.data);
    if (signed !== body) return verdict("body_mismatch", bodyDifference(id, signed, body));
  }
  return verdict(
    "bad_signature",
    "The signature matches none of this endpoint's secrets, nor any other of your endpoints'. Check that the receiver uses this endpoint's signing secret, whole (with its prefix).",
  );
}
