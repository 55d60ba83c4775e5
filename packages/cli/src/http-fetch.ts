import http from "node:http";

/**
 * fetch for the API's JSON calls, over node:http (and node:https, loaded only for an https URL). Node 20's
 * own fetch (undici) parses HTTP with a WebAssembly build of llhttp: compiling it costs about 15 ms on the
 * first request, and the process then sat idle some 45 ms more before it exited (V8's background compile
 * of it, by all signs): a third of a command's time (docs/benchmarks-log.md, "The CLI's start"). node:http parses
 * natively.
 *
 * As fetch does: redirects are followed (20 at most; a 303, or a 301/302 of a POST, becomes a GET without its
 * body; the Authorization header is not sent to another origin), and a failed connection rejects with a
 * TypeError whose cause says why. Unlike it, the body is read whole before the Response is made (the SDK
 * reads JSON, never a stream): `listen`'s event stream keeps the global fetch.
 */
const agents = new Map<string, http.Agent>();

async function agentFor(protocol: string): Promise<{ agent: http.Agent; request: typeof http.request }> {
  const client = protocol === "https:" ? await import("node:https") : http;
  // Kept-alive sockets for the commands that call more than once (trigger, lists over pages); an idle one
  // does not hold the process open.
  let agent = agents.get(protocol);
  if (!agent) {
    agent = new client.Agent({ keepAlive: true });
    agents.set(protocol, agent);
  }
  return { agent, request: client.request };
}

/** Statuses whose Response has no body (the constructor refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;

type Sent = {
  status: number;
  statusText: string | undefined;
  headers: Headers;
  body: ReturnType<typeof Buffer.concat>;
};

/** One request and its whole answer. */
async function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  signal: AbortSignal,
): Promise<Sent> {
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new TypeError(`fetch failed: ${url.protocol} is not http or https`);
  const { agent, request } = await agentFor(url.protocol);
  return new Promise<Sent>((resolve, reject) => {
    const outgoing = request(url, { method, headers, agent, signal }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.once("error", (error) => reject(new TypeError("fetch failed", { cause: error })));
      incoming.once("end", () => {
        const received = new Headers();
        for (let i = 0; i < incoming.rawHeaders.length; i += 2)
          received.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
        resolve({
          status: incoming.statusCode ?? 0,
          statusText: incoming.statusMessage,
          headers: received,
          body: Buffer.concat(chunks),
        });
      });
    });
    outgoing.once("error", (error) =>
      reject(error.name === "AbortError" ? error : new TypeError("fetch failed", { cause: error })),
    );
    outgoing.end(body);
  });
}

export const httpFetch: typeof fetch = async (input, init) => {
  const request = input instanceof Request && init === undefined ? input : new Request(input, init);
  let url = new URL(request.url);
  let method = request.method;
  let body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  headers["user-agent"] ??= "payments-cli";
  for (let redirects = 0; ; redirects++) {
    if (body) headers["content-length"] = String(body.length);
    else delete headers["content-length"];
    const answer = await send(url, method, headers, body, request.signal);
    const location = answer.headers.get("location");
    if (REDIRECTS.has(answer.status) && location !== null && request.redirect !== "manual") {
      if (request.redirect === "error" || redirects >= MAX_REDIRECTS)
        throw new TypeError("fetch failed", { cause: new Error(`redirected too often, or not allowed`) });
      const next = new URL(location, url);
      if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === "POST")) {
        method = method === "HEAD" ? "HEAD" : "GET";
        body = undefined;
        delete headers["content-type"];
      }
      // The key goes only where the user pointed the CLI.
      if (next.origin !== url.origin) delete headers.authorization;
      url = next;
      continue;
    }
    try {
      return new Response(NULL_BODY.has(answer.status) ? null : answer.body, {
        status: answer.status,
        statusText: answer.statusText,
        headers: answer.headers,
      });
    } catch (error) {
      // A status fetch cannot represent (below 200 or above 599).
      throw new TypeError("fetch failed", { cause: error });
    }
  }
};
