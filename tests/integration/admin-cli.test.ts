import { describe, expect, it } from "vitest";
import { runAdmin, testEnvironment, uniqueEmail } from "../support/test-server";

// A database of its own on PGlite (the test server holds its directory); the shared one on PostgreSQL.
const env = testEnvironment("cli", 0);

describe("admin CLI: merchant:create", () => {
  it("creates a merchant and prints exactly one JSON object", () => {
    const email = uniqueEmail("cli");
    const result = runAdmin(["merchant:create", "--email", email.toUpperCase(), "--password", "long enough pw", "--name", "Acme", "--json"], env);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const output = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(output).sort()).toEqual(["email", "merchant_id", "user_id"]);
    expect(output.email).toBe(email);
    expect(output.merchant_id).toEqual(expect.any(Number));
  });

  const email = uniqueEmail("cli-bad");
  const cases: Array<{ name: string; args: string[]; status: number; stderr: string }> = [
    { name: "missing password", args: ["merchant:create", "--email", email], status: 2, stderr: "missing --password" },
    { name: "missing everything", args: ["merchant:create", "--json"], status: 2, stderr: "missing --email, --password" },
    { name: "invalid email", args: ["merchant:create", "--email", "not-an-email", "--password", "long enough pw"], status: 1, stderr: "The email field must be a valid email address." },
    { name: "short password", args: ["merchant:create", "--email", email, "--password", "short", "--json"], status: 1, stderr: "The password field must be at least 10 characters." },
    { name: "common password", args: ["merchant:create", "--email", email, "--password", "password123"], status: 1, stderr: "too common" },
    { name: "empty name", args: ["merchant:create", "--email", email, "--password", "long enough pw", "--name", " "], status: 1, stderr: "The name field is required." },
    { name: "unknown option", args: ["merchant:create", "--email", email, "--password", "long enough pw", "--admin"], status: 2, stderr: "Unknown option '--admin'" },
    { name: "unknown command", args: ["merchant:delete", "--email", email], status: 2, stderr: 'Unknown command "merchant:delete"' },
  ];

  it.each(cases)("rejects $name with a clear message and no output", ({ args, status, stderr }) => {
    const result = runAdmin(args, env);
    expect(result.status).toBe(status);
    expect(result.stderr).toContain(stderr);
    expect(result.stdout).toBe("");
  });

  it("wrote nothing for the rejected email, and refuses a duplicate", () => {
    const created = runAdmin(["merchant:create", "--email", email, "--password", "long enough pw", "--json"], env);
    expect(created.status).toBe(0);
    const duplicate = runAdmin(["merchant:create", "--email", email, "--password", "long enough pw", "--json"], env);
    expect(duplicate.status).toBe(1);
    expect(duplicate.stderr).toContain("The email has already been taken.");
    expect(duplicate.stdout).toBe("");
  });
});
