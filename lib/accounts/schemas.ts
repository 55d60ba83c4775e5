import { z } from "zod";
import { USER_ROLES } from "@/db/enums";
import { isStorableText } from "@/lib/platform/validation";

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

/**
 * Sign-up and log-in are people's forms, not the merchant API, so their messages say what to do ("Enter your
 * business name.") rather than Laravel's rule wording; one message per problem.
 */
function requiredText(missing: string, max: number, tooLong: string) {
  return z
    .string({ error: missing })
    .trim()
    .min(1, missing)
    .max(max, tooLong)
    .refine(isStorableText, "Remove the NUL or broken characters.");
}

const email = requiredText(
  "Enter your email address.",
  255,
  "Use an email address of at most 255 characters.",
)
  .toLowerCase()
  .pipe(z.email({ error: "Enter a valid email address, such as you@example.com." }));

const newPassword = z
  .string({ error: "Enter a password." })
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(128, "Use at most 128 characters.")
  .refine(
    (password) => !COMMON_PASSWORDS.has(password.toLowerCase()),
    "This password is too common; choose another.",
  );

export const signUpSchema = z.object({
  name: requiredText("Enter your business name.", 255, "Use at most 255 characters for the business name."),
  /** The person signing up, shown to their team; optional, and without it the dashboard shows their email. */
  owner_name: z
    .string({ error: "Enter your name, or leave it empty." })
    .trim()
    .max(255, "Use at most 255 characters for your name.")
    .refine(isStorableText, "Remove the NUL or broken characters.")
    .optional()
    .transform((ownerName) => ownerName || undefined),
  email,
  password: newPassword,
});

export const changePasswordSchema = z
  .object({
    current_password: z
      .string({ error: "Enter your current password." })
      .min(1, "Enter your current password."),
    new_password: newPassword,
    confirm_password: z.string(),
  })
  .refine((input) => input.new_password === input.confirm_password, {
    path: ["confirm_password"],
    error: "The passwords do not match.",
  });

export const resetPasswordSchema = z.object({ email, password: newPassword });

export const inviteSchema = z.object({
  email,
  role: z.enum(USER_ROLES, { error: "Choose a role: owner, developer or viewer." }),
});

export const roleSchema = z.object({
  role: z.enum(USER_ROLES, { error: "Choose a role: owner, developer or viewer." }),
});

export const acceptInvitationSchema = z.object({
  name: requiredText("Enter your name.", 255, "Use at most 255 characters for your name."),
  password: newPassword,
});

export const logInSchema = z.object({
  email,
  password: z
    .string({ error: "Enter your password." })
    .min(1, "Enter your password.")
    .max(128, "Use at most 128 characters."),
});
export type LogInInput = z.infer<typeof logInSchema>;

/** The sign-in's second step: the signed challenge from the password step and a TOTP or recovery code. */
export const secondFactorSchema = z.object({
  challenge: z.string().min(1).max(200),
  code: z.string({ error: "Enter the code." }).trim().min(1, "Enter the code.").max(32, "Enter the code."),
});
