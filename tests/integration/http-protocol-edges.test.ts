import { describe, expect, inject, it } from "vitest";
import { rawExchange, rawHttp } from "../support/api-client";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const { host } = new URL(baseUrl);
const auth = `Authorization: Bearer ${tokens.api}`;

describe("requests HTTP/1.1 servers answer before any route", () => {
  it.each([
    ["HTTP/2.0 on an HTTP/1.1 connection", `GET /api/payments HTTP/2.0\r\nHost: ${host}\r\n${auth}\r\n\r\n`],
    ["HTTP/0.9 with headers", `GET /healthz HTTP/0.9\r\nHost: ${host}\r\n\r\n`],
  ])("%s: 505 JSON, and the connection closes", async (_name, request) => {
    const response = await rawHttp(baseUrl, request);
    expect([response.status, response.headers["content-type"], JSON.parse(response.body)]).toEqual([
      505,
      "application/json",
      { message: "HTTP Version Not Supported" },
    ]);
    expect(response.headers.connection).toBe("close");
  });

  it("CONNECT: 405 JSON with the methods the server takes (Node closed the connection without a word)", async () => {
    const response = await rawHttp(
      baseUrl,
      `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`,
    );
    expect([response.status, response.headers.allow, JSON.parse(response.body)]).toEqual([
      405,
      "GET, HEAD, POST, OPTIONS",
      { message: "Method Not Allowed" },
    ]);
  });

  it.each([
    ["one API request", [`GET /api/payments?perPage=1 HTTP/1.1\r\nHost: ${host}\r\n${auth}\r\n\r\n`], [200]],
    [
      "two requests, the slower first",
      [
        `GET /api/payments?perPage=1 HTTP/1.1\r\nHost: ${host}\r\n${auth}\r\n\r\n`,
        `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
      ],
      [200, 200],
    ],
  ])(
    "pipelined, %s then garbage: each answered in order, then a JSON 400",
    async (_name, valid, statuses) => {
      const { responses } = await rawExchange(baseUrl, [`${valid.join("")}GARBAGE\r\n\r\nMORE\r\n\r\n`]);
      expect(responses.map((response) => response.status)).toEqual([...statuses, 400]);
      expect(JSON.parse(responses.at(-1)!.body)).toEqual({ message: "Bad Request" });
      expect(JSON.parse(responses[0]!.body)).toHaveProperty("meta");
    },
  );
});
