import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testDatabaseProblem } from "../support/test-database";

describe("the database the tests may write into", () => {
  it("is a local database named for tests", () => {
    expect(testDatabaseProblem("postgres://postgres@127.0.0.1:5432/payments_test")).toBeNull();
    expect(testDatabaseProblem("postgres://postgres@localhost/payments_ci_1795_42_pooled")).toBeNull();
    expect(testDatabaseProblem("postgresql://u@[::1]:6439/tests")).toBeNull();
    expect(testDatabaseProblem("postgres:///payments_test?host=/var/run/postgresql")).toBeNull();
  });

  it("refuses a remote host or a database not named for tests, saying which", () => {
    expect(testDatabaseProblem("postgres://u@db.example.com/payments_test")).toMatch(/host db.example.com/);
    expect(testDatabaseProblem("postgres://u@127.0.0.1:5432/payments")).toMatch(/"payments" is not named/);
    expect(testDatabaseProblem("not a url")).toMatch(/not a URL/);
  });

  it("is decided after the .env files load: a development database in .env.local is refused", () => {
    const project = mkdtempSync(path.join(tmpdir(), "payments-env-"));
    writeFileSync(
      path.join(project, ".env.local"),
      "DATABASE_URL=postgres://postgres@127.0.0.1:5432/payments\n",
    );
    const env = { ...process.env };
    delete env.DATABASE_URL;
    delete env.TEST_DATABASE_DECIDED;
    const result = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        `import("${path.resolve("tests/support/test-database.ts")}").then((m) => m.decideTestDatabase(${JSON.stringify(project)}))`,
      ],
      { env, encoding: "utf8" },
    );
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("The tests refuse DATABASE_URL");
    expect(result.stderr).toContain('"payments" is not named for tests');
  });
});
