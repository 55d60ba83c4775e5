import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "@/lib/accounts/passwords";
import { signUpSchema } from "@/lib/accounts/schemas";
import { DomainError } from "@/lib/platform/errors";
import { idParam, parseInput } from "@/lib/platform/validation";

function fieldErrors(input: unknown) {
  try {
    parseInput(signUpSchema, input);
  } catch (error) {
    if (error instanceof DomainError) return error.fieldErrors;
    throw error;
  }
  return undefined;
}

describe("sign-up validation says what to do, once per field", () => {
  it.each([
    [
      {},
      {
        name: ["Enter your business name."],
        email: ["Enter your email address."],
        password: ["Enter a password."],
      },
    ],
    [{ name: 5, email: "a@b.co", password: "long enough pw" }, { name: ["Enter your business name."] }],
    [
      { name: "A", email: "nope", password: "long enough pw" },
      { email: ["Enter a valid email address, such as you@example.com."] },
    ],
    [
      { name: "A", email: "a@b.co", password: "x".repeat(129) },
      { password: ["Use at most 128 characters."] },
    ],
    [
      { name: "   ", email: "a@b.co", password: "short" },
      { name: ["Enter your business name."], password: ["Use at least 10 characters."] },
    ],
    [
      { name: "A", owner_name: "x".repeat(256), email: "a@b.co", password: "long enough pw" },
      { owner_name: ["Use at most 255 characters for your name."] },
    ],
  ])("%j", (input, expected) => {
    expect(fieldErrors(input)).toEqual(expected);
  });

  it("normalises the email", () => {
    expect(
      parseInput(signUpSchema, { name: " Acme ", email: " A@B.CO ", password: "long enough pw" }),
    ).toEqual({
      name: "Acme",
      email: "a@b.co",
      password: "long enough pw",
    });
  });

  it("takes the person's name apart from the business name: optional, trimmed, empty as none", () => {
    const base = { name: "Acme", email: "a@b.co", password: "long enough pw" };
    expect(parseInput(signUpSchema, { ...base, owner_name: " Ada Lovelace " }).owner_name).toBe(
      "Ada Lovelace",
    );
    expect(parseInput(signUpSchema, { ...base, owner_name: "  " }).owner_name).toBeUndefined();
    expect(parseInput(signUpSchema, base).owner_name).toBeUndefined();
  });
});

describe("password hashing", () => {
  it("verifies the right password only", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterY", hash)).toBe(false);
    expect(await verifyPassword("anything", "garbage")).toBe(false);
  });
});

describe("idParam", () => {
  it.each([
    ["1", 1],
    ["281474976710657", 281474976710657],
    // A Citus worker of group 4 makes ids from 4 × 2^48: 16 digits.
    ["1125899906842625", 1125899906842625],
    ["9007199254740991", Number.MAX_SAFE_INTEGER],
  ])("reads %s", (text, id) => {
    expect(idParam.parse(text)).toBe(id);
  });

  it.each(["01", "-1", "1.0", "9007199254740992", "12345678901234567", ""])(
    "names nothing with %j",
    (text) => {
      expect(idParam.safeParse(text).success).toBe(false);
    },
  );
});
