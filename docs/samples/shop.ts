// Stands in for your shop in docs/samples/checkout.spec.ts: the page `return_url` sends the payer back to, and
// the route your webhook endpoint points at, which keeps each delivery as it came (the raw body and the
// headers) so the test can verify it as your backend does. Your own app plays this part in your tests.
import http from "node:http";

export type Delivery = { body: string; headers: Record<string, string> };

export type Shop = {
  url: string;
  /** The next delivery of this event type (`payment.completed`), waiting for it if it has not come yet. */
  nextWebhook: (type: string, timeoutMs?: number) => Promise<Delivery>;
  close: () => Promise<void>;
};

export async function startShop(port: number): Promise<Shop> {
  const deliveries: Delivery[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method === "POST" && request.url === "/webhooks") {
        const headers: Record<string, string> = {};
        for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"])
          headers[name] = String(request.headers[name]);
        deliveries.push({ body: Buffer.concat(chunks).toString("utf8"), headers });
        response.writeHead(204).end();
        return;
      }
      const url = new URL(request.url ?? "/", "http://shop.invalid");
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      response.end(
        `<!doctype html><html lang="en"><title>Shop</title><h1>Order ${url.searchParams.get("order")}: ${url.searchParams.get("status")}</h1></html>`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));

  const typeOf = (delivery: Delivery) => (JSON.parse(delivery.body) as { event?: string }).event;
  return {
    url: `http://127.0.0.1:${port}`,
    async nextWebhook(type, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = deliveries.findIndex((delivery) => typeOf(delivery) === type);
        if (index >= 0) return deliveries.splice(index, 1)[0]!;
        if (Date.now() > deadline) throw new Error(`No ${type} webhook came within ${timeoutMs} ms.`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
