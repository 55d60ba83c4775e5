import { describe, expect, it } from "vitest";
import { databaseDisplayName, databaseUrlParts, withDatabaseName } from "@/db/url";
import { testDatabaseProblem } from "../support/test-database";

const formation =
  "postgres://postgres:pw@127.0.0.1:5441,127.0.0.1:5442/payments_ci?target_session_attrs=read-write";

describe("postgres:// URLs naming several hosts", () => {
  it("reads every host, the database and the settings", () => {
    expect(databaseUrlParts(formation)).toMatchObject({
      hosts: ["127.0.0.1:5441", "127.0.0.1:5442"],
      hostnames: ["127.0.0.1", "127.0.0.1"],
      database: "payments_ci",
    });
    expect(databaseUrlParts(formation).searchParams.get("target_session_attrs")).toBe("read-write");
    expect(databaseUrlParts("postgres://[::1]:5432/db").hostnames).toEqual(["::1"]);
  });

  it("moves to another database on the same servers, keeping credentials and settings", () => {
    expect(withDatabaseName(formation, "payments_ci_keys")).toBe(
      "postgres://postgres:pw@127.0.0.1:5441,127.0.0.1:5442/payments_ci_keys?target_session_attrs=read-write",
    );
    expect(withDatabaseName("postgres://db.internal", "app")).toBe("postgres://db.internal/app");
  });

  it("names the servers without the password", () => {
    expect(databaseDisplayName(formation)).toBe("127.0.0.1:5441,127.0.0.1:5442/payments_ci");
    expect(databaseDisplayName("postgres://u@/db?host=/var/run/postgresql")).toBe("localhost:5432/db");
  });

  it("the tests accept a local formation and refuse one with a remote node", () => {
    expect(testDatabaseProblem(formation)).toBeNull();
    expect(testDatabaseProblem(formation.replace("127.0.0.1:5442", "db2.example.com:5432"))).toMatch(
      /db2\.example\.com is not this machine/,
    );
    expect(() => databaseUrlParts("mysql://x/y")).toThrow();
  });
});
