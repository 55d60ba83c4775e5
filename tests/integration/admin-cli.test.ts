import { spawn } from "node:child_process";
import net from "node:net";
import { describe, expect, inject, it } from "vitest";
import { adminCliEnvironment, runAdmin, uniqueEmail } from "../support/test-server";

// A database of its own on PGlite (the test server holds its directory); the shared one on PostgreSQL.
const env = adminCliEnvironment(inject("serverEnv"));

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
