// The ceiling: a bare node:http + postgres.js server that runs the same SQL as the app for the same three
// requests (auth and rate limit, list, create), with none of Next.js, drizzle or zod in between. The list's
// two statements are the app's compiled ones (text built once, values bound per call), as the app runs them.
import { createHash } from "node:crypto";
import http from "node:http";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import postgres from "postgres";
import { newCheckoutToken } from "@/lib/payments/checkout-token";
import { createPaymentCall, storedMetadata } from "@/lib/payments/create-payment";
import { listPageStatement } from "@/lib/payments/queries";
import { publicId } from "@/lib/platform/ids";
import { authenticationStatement } from "@/lib/tokens/authenticate";

const dialect = new PgDialect();
// As the app: unprepared behind a pooler in transaction mode (DATABASE_PREPARED_STATEMENTS=false).
const prepare = process.env.DATABASE_PREPARED_STATEMENTS !== "false";
const sql = postgres(process.env.DATABASE_URL!, {
  max: Number(process.env.DATABASE_POOL_MAX ?? 10),
  onnotice: () => {},
});

function run(query: SQL) {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return sql.unsafe(text, params as never[], { prepare });
}

async function authenticate(request: http.IncomingMessage) {
  const token = /^bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
  if (!token) return undefined;
  const [row] = await sql.unsafe(
    authenticationStatement.text,
    authenticationStatement.bind({
      tokenHash: createHash("sha256").update(token).digest("hex"),
      defaultPerMinute: 30,
    }) as never[],
    { prepare },
  );
  return row as { merchant_id: string; default_currency: string; allowed: boolean } | undefined;
}

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    void (async () => {
      const auth = await authenticate(request);
      if (!auth || !auth.allowed) return response.writeHead(auth ? 429 : 401).end();
      const merchantId = Number(auth.merchant_id);
      const url = new URL(request.url ?? "/", "http://localhost");
      if (request.method === "GET") {
        const page = Number(url.searchParams.get("page") ?? 1);
        const perPage = Number(url.searchParams.get("perPage") ?? 10);
        const offset = (page - 1) * perPage;
        const statement = listPageStatement(offset);
        const rows = await sql.unsafe(
          statement.text,
          statement.bind({ merchantId, offset, perPage }) as never[],
          { prepare },
        );
        const data = rows
          .filter((row) => row.id !== null)
          .map((row) => ({
            id: Number(row.id),
            external_id: row.external_id as string,
            type: "payment",
            status: row.status as string,
            amount: row.amount as string,
            currency: row.currency as string,
            created_at: (row.created_at as Date).toISOString(),
          }));
        response
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ data, meta: { total: Number(rows[0]?.total ?? 0) } }));
        return;
      }
      const body: { amount: number; external_id?: string; customer_id?: string } = JSON.parse(
        Buffer.concat(chunks).toString() || "{}",
      ) as never;
      const amount = body.amount.toFixed(2);
      const external_id = body.external_id ?? null;
      // The customer's rollups as the app keeps them.
      const customer_id = body.customer_id ?? null;
      const [payment] = await run(
        createPaymentCall(
          merchantId,
          {
            amount,
            currency: String(auth.default_currency),
            external_id,
            customer_id,
            metadata: storedMetadata(null, customer_id),
            source: "api",
            autoSettleMs: 0,
            return_url: null,
            paymentLinkId: null,
            checkout: newCheckoutToken(merchantId),
          },
          publicId("evt"),
        ),
      );
      const id = (payment!.created as { id: string | number }).id;
      response
        .writeHead(201, { "content-type": "application/json", location: `/api/payments/${id}` })
        .end('{"message":"Payment created successfully"}');
    })().catch((error: unknown) => {
      console.error(error);
      response.writeHead(500).end();
    });
  });
});

server.listen(Number(process.env.PORT ?? 4200), "127.0.0.1", () => console.log("baseline ready"));
// Exits normally on SIGTERM, so `node --cpu-prof` writes its profile (bench/profile.ts).
process.once("SIGTERM", () => server.close(() => process.exit(0)));
