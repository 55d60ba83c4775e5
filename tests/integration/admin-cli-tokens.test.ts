import { describe, expect, inject, it } from "vitest";
import { adminCliEnvironment, runAdmin, uniqueEmail } from "../support/test-server";

// A database of its own on PGlite (the test server holds its directory); the shared one on PostgreSQL.
const env = adminCliEnvironment(inject("serverEnv"));

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
    expect(created.token).toMatch(/^pay_test_[0-9A-Za-z]{49}$/);

    const listed = json(["token:list", "--email", owner]).tokens as Array<Record<string, unknown>>;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      id: created.id,
      status: "active",
      hint: `pay_test_…${String(created.token).slice(-4)}`,
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
      [["--amount", "1.001"], 1, "The amount field must have at most 2 decimal places."],
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
