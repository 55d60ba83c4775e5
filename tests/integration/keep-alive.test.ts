// The API server keeps an idle keep-alive connection 75 s, longer than the clients that pool them (Go keeps
// them 90 s, browsers and Python's requests reuse them): a request after a pause is served on the same
// connection, never met by a reset (Node's default closed it after 5 s).
import net from "node:net";
import { describe, expect, inject, it } from "vitest";

const baseUrl = new URL(inject("baseUrl"));

/** Sends one request on the socket and resolves with the status line of its answer. */
function statusLine(socket: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = "";
    const onData = (chunk: Buffer) => {
      received += chunk.toString("latin1");
      // /healthz answers a short body with a Content-Length: the whole answer is in once the body is.
      const headerEnd = received.indexOf("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(received)?.[1];
      if (headerEnd >= 0 && length !== undefined && received.length >= headerEnd + 4 + Number(length)) {
        socket.off("data", onData);
        socket.off("close", onClose);
        resolve(received.split("\r\n", 1)[0]!);
      }
    };
    const onClose = () => reject(new Error(`closed by the server after: ${JSON.stringify(received)}`));
    socket.on("data", onData);
    socket.once("close", onClose);
    socket.write(`GET /healthz HTTP/1.1\r\nHost: ${baseUrl.host}\r\nConnection: keep-alive\r\n\r\n`);
  });
}

describe("keep-alive", () => {
  it("a request after 6 s idle is served on the same connection", async () => {
    const socket = net.connect(Number(baseUrl.port), baseUrl.hostname);
    await new Promise((resolve) => socket.once("connect", resolve));
    try {
      expect(await statusLine(socket)).toBe("HTTP/1.1 200 OK");
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(socket.destroyed).toBe(false);
      expect(await statusLine(socket)).toBe("HTTP/1.1 200 OK");
    } finally {
      socket.destroy();
    }
  });
});
