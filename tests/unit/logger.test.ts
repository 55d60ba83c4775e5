import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { errorForLog } from "@/lib/platform/logger";

describe("errorForLog", () => {
  it("drops a failed query's parameters from its message, stack and cause", () => {
    const cause = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: "22021",
      parameters: ["sha256-of-a-token", "cus_secret"],
    });
    const error = new DrizzleQueryError(
      "select * from api_tokens where token_hash = $1",
      ["sha256-of-a-token"],
      cause,
    );
    const logged = JSON.stringify(errorForLog(error));
    expect(logged).not.toContain("sha256-of-a-token");
    expect(logged).not.toContain("cus_secret");
    expect(logged).toContain("select * from api_tokens where token_hash = $1");
    expect(logged).toContain("22021");
    expect(errorForLog(error)).toMatchObject({ type: "Error", cause: { code: "22021" } });
  });

  it("logs a non-error as its text", () => {
    expect(errorForLog("plain")).toEqual({ message: "plain" });
  });
});
