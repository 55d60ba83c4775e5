import { z } from "zod";
import { messages, stringField } from "@/lib/platform/validation";

// The handful of passwords every credential-stuffing list starts with; length does the rest.
const COMMON_PASSWORDS = new Set([
  "password123",
  "password1234",
  "1234567890",
  "12345678910",
  "qwertyuiop",
  "iloveyou123",
  "letmein123",
  "administrator",
  "passw0rd123",
  "welcome123",
  "changeme123",
  "qwerty12345",
  "0987654321",
  "1q2w3e4r5t",
]);

export const PASSWORD_MIN_LENGTH = 10;

const email = stringField("email", { max: 255 })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: messages.email("email") }));

export const signUpSchema = z.object({
  name: stringField("name", { min: 1, max: 255 }).trim().min(1, messages.required("name")),
  email,
  password: stringField("password", { min: PASSWORD_MIN_LENGTH, max: 128 }).refine(
    (password) => !COMMON_PASSWORDS.has(password.toLowerCase()),
    "This password is too common; choose another.",
  ),
});

export const logInSchema = z.object({
  email,
  password: stringField("password", { min: 1, max: 128 }),
});
export type LogInInput = z.infer<typeof logInSchema>;
