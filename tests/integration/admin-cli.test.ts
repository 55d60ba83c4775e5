import { spawn } from "node:child_process";
import net from "node:net";
import { describe, expect, inject, it } from "vitest";
import { runAdmin, testEnvironment, uniqueEmail } from "../support/test-server";

// A database of its own on PGlite (the test server holds its directory); the shared one on PostgreSQL.
// Production policy for webhook URLs: no private networks, https only.
// The server's keys: on PostgreSQL the secrets written here live beside the server's, and its workers read them.
const { AUTH_SECRET, ENCRYPTION_KEYS } = inject("serverEnv");
const env = {
  ...testEnvironment("cli", 0),
  AUTH_SECRET,
  ENCRYPTION_KEYS,
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: "false",
};

describe("admin CLI: merchant:create", () => {
  it("creates a merchant and prints exactly one JSON object", () => {
    const email = uniqueEmail("cli");
    const result = runAdmin(
      [
        "merchant:create",
        "--email",
        email.toUpperCase(),
        "--password",
        "long enough pw",
        "--name",
        "Acme",
        "--json",
      ],
      env,
    );
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const output = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(output).sort()).toEqual(["email", "merchant_id", "user_id"]);
    expect(output.email).toBe(email);
    expect(output.merchant_id).toEqual(expect.any(Number));
  });

  const email = uniqueEmail("cli-bad");
  const cases: Array<{ name: string; args: string[]; status: number; stderr: string }> = [
    {
      name: "missing password",
      args: ["merchant:create", "--email", email],
      status: 2,
      stderr: "missing --password",
    },
    {
      name: "missing everything",
      args: ["merchant:create", "--json"],
      status: 2,
      stderr: "missing --email, --password",
    },
    {
      name: "invalid email",
      args: ["merchant:create", "--email", "not-an-email", "--password", "long enough pw"],
      status: 1,
      stderr: "Enter a valid email address, such as you@example.com.",
    },
    {
      name: "short password",
      args: ["merchant:create", "--email", email, "--password", "short", "--json"],
      status: 1,
      stderr: "Use at least 10 characters.",
    },
    {
      name: "common password",
      args: ["merchant:create", "--email", email, "--password", "password123"],
      status: 1,
      stderr: "too common",
    },
    {
      name: "empty name",
      args: ["merchant:create", "--email", email, "--password", "long enough pw", "--name", " "],
      status: 1,
      stderr: "Enter your business name.",
    },
    {
      name: "unknown option",
      args: ["merchant:create", "--email", email, "--password", "long enough pw", "--admin"],
      status: 2,
      stderr: "Unknown option '--admin'",
    },
    {
      name: "unknown command",
      args: ["merchant:delete", "--email", email],
      status: 2,
      stderr: 'Unknown command "merchant:delete"',
    },
  ];

  it.each(cases)("rejects $name with a clear message and no output", ({ args, status, stderr }) => {
    const result = runAdmin(args, env);
    expect(result.status).toBe(status);
    expect(result.stderr).toContain(stderr);
    expect(result.stdout).toBe("");
  });

  it("wrote nothing for the rejected email, and refuses a duplicate", () => {
    const created = runAdmin(
      ["merchant:create", "--email", email, "--password", "long enough pw", "--json"],
      env,
    );
    expect(created.status).toBe(0);
    const duplicate = runAdmin(
      ["merchant:create", "--email", email, "--password", "long enough pw", "--json"],
      env,
    );
    expect(duplicate.status).toBe(1);
    expect(duplicate.stderr).toContain("The email has already been taken.");
    expect(duplicate.stdout).toBe("");
  });
});

describe("admin CLI: tokens and rate limits", () => {
  const owner = uniqueEmail("cli-tokens");
  const stranger = uniqueEmail("cli-stranger");
  const json = (args: string[]) => {
    const result = runAdmin([...args, "--json"], env);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  };
  const tokenCount = () => (json(["token:list", "--email", owner]).tokens as unknown[]).length;

  it("creates, lists and revokes tokens, and sets a rate limit", () => {
    json(["merchant:create", "--email", owner, "--password", "long enough pw"]);
    json(["merchant:create", "--email", stranger, "--password", "long enough pw"]);
    const created = json([
      "token:create",
      "--email",
      owner,
      "--name",
      "CI deploys",
      "--scope",
      "read",
      "--expires-in-days",
      "30",
    ]);
    expect(Object.keys(created).sort()).toEqual(["id", "name", "scope", "token"]);
    expect(created).toMatchObject({ name: "CI deploys", scope: "read" });
    expect(created.token).toMatch(/^pay_[0-9A-Za-z]{49}$/);

    const listed = json(["token:list", "--email", owner]).tokens as Array<Record<string, unknown>>;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      id: created.id,
      status: "active",
      hint: `pay_…${String(created.token).slice(-4)}`,
    });
    expect(JSON.stringify(listed)).not.toContain(String(created.token));

    const revoked = json(["token:revoke", "--email", owner, "--id", String(created.id)]);
    expect(Object.keys(revoked).sort()).toEqual(["id", "revoked_at"]);
    expect(
      (json(["token:list", "--email", owner]).tokens as Array<Record<string, unknown>>)[0],
    ).toMatchObject({ status: "revoked" });

    const limit = json(["merchant:rate-limit", "--email", owner, "--per-minute", "120"]);
    expect(Object.keys(limit).sort()).toEqual(["merchant_id", "per_minute"]);
    expect(limit.per_minute).toBe(120);
  });

  const refusals: Array<[string, () => string[], number, string]> = [
    [
      "unknown merchant",
      () => ["token:create", "--email", uniqueEmail("nobody"), "--name", "x"],
      1,
      "No merchant has a user with the email",
    ],
    ["missing name", () => ["token:create", "--email", owner], 2, "missing --name"],
    [
      "blank name",
      () => ["token:create", "--email", owner, "--name", "  "],
      1,
      "The name field is required.",
    ],
    [
      "bad scope",
      () => ["token:create", "--email", owner, "--name", "x", "--scope", "admin"],
      1,
      "The selected scope is invalid.",
    ],
    [
      "zero days",
      () => ["token:create", "--email", owner, "--name", "x", "--expires-in-days", "0"],
      1,
      "The expires in days field must be at least 1.",
    ],
    [
      "text days",
      () => ["token:create", "--email", owner, "--name", "x", "--expires-in-days", "soon"],
      1,
      "The expires in days field must be an integer.",
    ],
    [
      "revoke a non-numeric id",
      () => ["token:revoke", "--email", owner, "--id", "abc"],
      1,
      "The id field must be an integer.",
    ],
    [
      "zero rate limit",
      () => ["merchant:rate-limit", "--email", owner, "--per-minute", "0"],
      1,
      "The per minute field must be at least 1.",
    ],
    [
      "text rate limit",
      () => ["merchant:rate-limit", "--email", owner, "--per-minute", "lots"],
      1,
      "The per minute field must be an integer.",
    ],
  ];

  let tokensBeforeRefusals = 0;
  it("counts the tokens before the refusals", () => {
    tokensBeforeRefusals = tokenCount();
  });

  it.each(refusals)("refuses %s with a clear message and no output", (_name, args, status, stderr) => {
    const result = runAdmin([...args(), "--json"], env);
    expect(result.status).toBe(status);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(stderr);
  });

  it("created no token for any refusal", () => {
    expect(tokenCount()).toBe(tokensBeforeRefusals);
  });

  it("will not revoke another merchant's token, nor one already revoked", () => {
    const mine = json(["token:create", "--email", owner, "--name", "mine"]);
    const intruder = runAdmin(["token:revoke", "--email", stranger, "--id", String(mine.id)], env);
    expect(intruder.status).toBe(1);
    expect(intruder.stderr).toContain(`API token ${String(mine.id)} was not found.`);
    json(["token:revoke", "--email", owner, "--id", String(mine.id)]);
    const again = runAdmin(["token:revoke", "--email", owner, "--id", String(mine.id)], env);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("is already revoked.");
  });
});

describe("admin CLI: webhooks and settlement", () => {
  const owner = uniqueEmail("cli-hooks");

  it("adds a webhook endpoint and prints its secret once", () => {
    expect(runAdmin(["merchant:create", "--email", owner, "--password", "long enough pw"], env).status).toBe(
      0,
    );
    const result = runAdmin(
      [
        "webhook:create",
        "--email",
        owner,
        "--url",
        "https://example.com/hooks",
        "--events",
        "payment.completed,payment.failed",
        "--json",
      ],
      env,
    );
    expect(result.stderr).toBe("");
    const output = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(output).sort()).toEqual(["id", "secret", "url"]);
    expect(output.url).toBe("https://example.com/hooks");
    expect(output.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  });

  it.each([
    [["--url", "ftp://example.com"], "The url field must start with https:// or http://."],
    [["--url", "not a url"], "The url field must be a valid URL."],
    [["--url", "https://user:pw@example.com/"], "The url field must not contain a user name or password."],
    [["--url", "http://example.com/hooks"], "The url field must use https://."],
    [
      ["--url", "https://127.0.0.1/hooks"],
      "The url field must not point to a private, loopback or link-local address.",
    ],
    [["--url", "https://example.com", "--events", "payment.refunded"], "The selected events is invalid."],
  ])("refuses webhook:create %j", (args, message) => {
    const result = runAdmin(["webhook:create", "--email", owner, ...args, "--json"], env);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(message);
  });

  it("creates a payment and settles it; bad input writes nothing", () => {
    const create = (args: string[]) => runAdmin(["payment:create", "--email", owner, ...args, "--json"], env);
    const first = create(["--amount", "12.5", "--external-id", "cli_order_1"]);
    expect(first.stderr).toBe("");
    const { id, status } = JSON.parse(first.stdout) as { id: number; status: string };
    expect(status).toBe("pending");
    for (const [args, exitStatus, message] of [
      [["--amount", "12,50"], 1, "The amount field must be a number."],
      [["--amount=-1"], 1, "The amount field must be at least 0."],
      [["--amount", "1.001"], 1, "The amount field must have 0-2 decimal places."],
      [
        ["--amount", "1", "--external-id", "x".repeat(256)],
        1,
        "The external id field must not be greater than 255 characters.",
      ],
      [[], 2, "missing --amount"],
    ] as Array<[string[], number, string]>) {
      const refused = create(args);
      expect(refused.status, args.join(" ")).toBe(exitStatus);
      expect(refused.stdout).toBe("");
      expect(refused.stderr).toContain(message);
    }
    const second = JSON.parse(create(["--amount", "1"]).stdout) as { id: number };
    expect(second.id).toBe(id + 1);
    const settled = runAdmin(["payment:settle", "--id", String(id), "--outcome", "completed", "--json"], env);
    expect(JSON.parse(settled.stdout)).toEqual({ id, status: "completed" });
  });

  it.each([
    [["--id", "999999999", "--outcome", "completed"], 1, "Payment 999999999 was not found."],
    [["--id", "1", "--outcome", "refunded"], 1, "The selected outcome is invalid."],
    [["--id", "x", "--outcome", "completed"], 1, "The id field must be an integer."],
    [["--id", "1"], 2, "missing --outcome"],
  ])("refuses payment:settle %j", (args, status, message) => {
    const result = runAdmin(["payment:settle", ...args, "--json"], env);
    expect(result.status).toBe(status);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(message);
  });
});

describe("admin CLI: users", () => {
  const owner = uniqueEmail("cli-team");

  it("invites a member with a single-use link, resets a password, and refuses bad input", () => {
    expect(runAdmin(["merchant:create", "--email", owner, "--password", "long enough pw"], env).status).toBe(
      0,
    );
    const member = uniqueEmail("cli-member");
    const invited = runAdmin(
      ["user:invite", "--email", member, "--merchant-email", owner, "--role", "viewer", "--json"],
      env,
    );
    expect(invited.stderr).toBe("");
    const output = JSON.parse(invited.stdout) as Record<string, unknown>;
    expect(Object.keys(output).sort()).toEqual([
      "email",
      "expires_at",
      "invitation_id",
      "mailed",
      "role",
      "url",
    ]);
    expect(output).toMatchObject({ email: member, role: "viewer", mailed: false });
    expect(output.url).toMatch(/\/invite\/inv_[\w-]+$/);
    for (const [args, message] of [
      [["--role", "admin"], "Choose a role"],
      [["--role", "viewer", "--email", owner], "This email already has an account."],
    ] as const) {
      const refused = runAdmin(
        ["user:invite", "--email", uniqueEmail("x"), "--merchant-email", owner, ...args, "--json"],
        env,
      );
      expect(refused.status).toBe(1);
      expect(refused.stdout).toBe("");
      expect(refused.stderr).toContain(message);
    }
    const unknown = runAdmin(
      [
        "user:invite",
        "--email",
        uniqueEmail("x"),
        "--merchant-email",
        uniqueEmail("nobody"),
        "--role",
        "viewer",
      ],
      env,
    );
    expect(unknown.status).toBe(1);

    const reset = runAdmin(
      ["user:reset-password", "--email", owner, "--password", "a fresh passphrase", "--json"],
      env,
    );
    expect(reset.stderr).toBe("");
    expect(JSON.parse(reset.stdout)).toMatchObject({ email: owner });
    const weak = runAdmin(["user:reset-password", "--email", owner, "--password", "short"], env);
    expect(weak.status).toBe(1);
    expect(weak.stderr).toContain("Use at least 10 characters.");
  });
});

describe("admin CLI: invitations by mail", () => {
  /** A minimal SMTP sink on a free port: enough of RFC 5321 for nodemailer, keeping each message. */
  function smtpSink(): Promise<{ port: number; messages: string[]; close: () => void }> {
    const messages: string[] = [];
    const server = net.createServer((socket) => {
      let data: string | null = null;
      let buffer = "";
      socket.write("220 localhost ESMTP test\r\n");
      socket.on("data", (chunk) => {
        buffer += chunk.toString("utf8");
        for (;;) {
          if (data !== null) {
            const end = buffer.indexOf("\r\n.\r\n");
            if (end < 0) return;
            messages.push(data + buffer.slice(0, end));
            buffer = buffer.slice(end + 5);
            data = null;
            socket.write("250 OK queued\r\n");
            continue;
          }
          const line = buffer.indexOf("\r\n");
          if (line < 0) return;
          const command = buffer.slice(0, line).toUpperCase();
          buffer = buffer.slice(line + 2);
          if (command.startsWith("EHLO")) socket.write("250-localhost\r\n250 8BITMIME\r\n");
          else if (command.startsWith("DATA")) {
            data = "";
            socket.write("354 go ahead\r\n");
          } else if (command.startsWith("QUIT")) socket.end("221 bye\r\n");
          else socket.write("250 OK\r\n");
        }
      });
    });
    return new Promise((resolve) =>
      server.listen(0, "127.0.0.1", () =>
        resolve({ port: (server.address() as net.AddressInfo).port, messages, close: () => server.close() }),
      ),
    );
  }

  it("mails the link when SMTP_URL is set", async () => {
    const sink = await smtpSink();
    try {
      const owner = uniqueEmail("cli-mail");
      expect(
        runAdmin(["merchant:create", "--email", owner, "--password", "long enough pw"], env).status,
      ).toBe(0);
      const member = uniqueEmail("cli-mailed");
      // Asynchronously: the sink answers from this process.
      const child = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          "--conditions=react-server",
          "scripts/admin.ts",
          "user:invite",
          "--email",
          member,
          "--merchant-email",
          owner,
          "--role",
          "developer",
          "--json",
        ],
        { env: { ...env, SMTP_URL: `smtp://127.0.0.1:${sink.port}` } },
      );
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      await new Promise((resolve) => child.once("exit", resolve));
      const output = JSON.parse(stdout) as { url: string; mailed: boolean };
      expect(output.mailed).toBe(true);
      expect(sink.messages).toHaveLength(1);
      expect(sink.messages[0]).toContain(`To: ${member}`);
      expect(sink.messages[0]!.replace(/=\r\n/g, "")).toContain(output.url);
    } finally {
      sink.close();
    }
  });
});
