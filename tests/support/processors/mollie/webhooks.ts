// Webhook calls as docs.mollie.com/overview/webhooks describes them: a POST with the form body `id=tr_…` (the
// payment's id, also when a refund changed), answered with 200 to count as delivered, cut off after 15 seconds.
// Mollie retries 10 times over 26 hours (1, 2, 4, 8… minutes apart); the stand-in keeps the first three retries
// of that schedule, with seconds for minutes, so a test can watch a retry happen.
import http from "node:http";
import https from "node:https";
import { rootCertificates } from "node:tls";

export interface WebhookCall {
  paymentId: string;
  url: string;
  /** The receiver's HTTP status, or 0 when no answer came (refused, reset, timed out). */
  status: number;
  error?: string;
  attempt: number;
  at: Date;
}

const TIMEOUT_MS = 15_000;
const RETRY_DELAYS_MS = [1_000, 2_000, 4_000];

export class Webhooks {
  readonly calls: WebhookCall[] = [];
  muted = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly pending = new Set<http.ClientRequest>();
  private closed = false;

  /** A receiver on HTTPS may use the tests' own authority, so it is trusted beside the public roots. */
  constructor(private readonly ca: string) {}

  /**
   * Calls `url` about `paymentId`; the promise settles once the first attempt has (retries go on in the
   * background). Nothing is sent while muted, as when a webhook is missed.
   */
  notify(url: string | null, paymentId: string): Promise<void> {
    if (this.muted || !url || this.closed) return Promise.resolve();
    return this.attempt(url, paymentId, 1);
  }

  private async attempt(url: string, paymentId: string, attempt: number): Promise<void> {
    const call = await this.post(url, paymentId);
    this.calls.push({ paymentId, url, attempt, at: new Date(), ...call });
    const delay = RETRY_DELAYS_MS[attempt - 1];
    if (call.status === 200 || delay === undefined || this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(url, paymentId, attempt + 1);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  private post(url: string, paymentId: string): Promise<{ status: number; error?: string }> {
    const body = new URLSearchParams({ id: paymentId }).toString();
    return new Promise((resolve) => {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        resolve({ status: 0, error: "invalid URL" });
        return;
      }
      const transport = target.protocol === "https:" ? https : http;
      const request = transport.request(target, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
          Accept: "*/*",
          "User-Agent": "Mollie stand-in webhook",
        },
        timeout: TIMEOUT_MS,
        ...(target.protocol === "https:" ? { ca: [...rootCertificates, this.ca] } : {}),
      });
      this.pending.add(request);
      const done = (result: { status: number; error?: string }) => {
        this.pending.delete(request);
        resolve(result);
      };
      request.on("response", (response) => {
        response.resume();
        response.on("end", () => done({ status: response.statusCode ?? 0 }));
        response.on("error", (error) => done({ status: response.statusCode ?? 0, error: error.message }));
      });
      request.on("timeout", () => request.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
      request.on("error", (error) => done({ status: 0, error: error.message }));
      request.end(body);
    });
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const request of this.pending) request.destroy();
  }
}
