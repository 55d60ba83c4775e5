import { isLosslessNumber } from "lossless-json";
import { z } from "zod";
import { util } from "zod/v4/core";
import { validationError, type FieldErrors } from "./errors";

/** Fields whose name in a message is not their key's words (Laravel's custom `attributes`): an acronym. */
const ATTRIBUTE_NAMES: Record<string, string> = { iban: "IBAN" };

/** Laravel names a field in messages without underscores: `external_id` → "external id". */
export function attributeName(field: string): string {
  return ATTRIBUTE_NAMES[field] ?? field.replaceAll("_", " ");
}

/** Laravel's wording for the rules this product uses, so every surface says the same thing. */
export const messages = {
  required: (field: string) => `The ${attributeName(field)} field is required.`,
  string: (field: string) => `The ${attributeName(field)} field must be a string.`,
  number: (field: string) => `The ${attributeName(field)} field must be a number.`,
  integer: (field: string) => `The ${attributeName(field)} field must be an integer.`,
  email: (field: string) => `The ${attributeName(field)} field must be a valid email address.`,
  url: (field: string) => `The ${attributeName(field)} field must be a valid URL.`,
  min: (field: string, min: number | string) => `The ${attributeName(field)} field must be at least ${min}.`,
  max: (field: string, max: number | string) =>
    `The ${attributeName(field)} field must not be greater than ${max}.`,
  minLength: (field: string, min: number) =>
    `The ${attributeName(field)} field must be at least ${min} characters.`,
  maxLength: (field: string, max: number) =>
    `The ${attributeName(field)} field must not be greater than ${max} characters.`,
  gt: (field: string, value: number | string) =>
    `The ${attributeName(field)} field must be greater than ${value}.`,
  decimalsAtMost: (field: string, places: number) =>
    `The ${attributeName(field)} field must have at most ${places} decimal places.`,
  in: (field: string) => `The selected ${attributeName(field)} is invalid.`,
  /** Laravel's `in` message, with the choices named: the caller learns the fix from the refusal. */
  inChoices: (field: string, values: readonly string[]) =>
    `The selected ${attributeName(field)} is invalid. It must be one of: ${values.join(", ")}.`,
  noNul: (field: string) => `The ${attributeName(field)} field must not contain NUL characters.`,
  wellFormed: (field: string) => `The ${attributeName(field)} field must be valid UTF-8 text.`,
};

/**
 * Characters as "at most N characters" counts them: code points, as Laravel's `max` and a string field's
 * `max` here do (zod's own count), never UTF-16 units, so an emoji is one character, not two.
 */
/** A calendar day that exists (no 2026-02-30), `YYYY-MM-DD` from year 1 to 9999, as a date input sends it. */
export function isCalendarDay(value: string): boolean {
  // The last day is refused too: a range to it ends at the next midnight, in a year the database cannot hold.
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value.startsWith("0000") || value >= "9999-12-31") return false;
  // new Date rolls 2026-02-30 over to March: a day that does not exist is refused.
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

/** Whether an instant is one the database holds and reads back as written: years 0001 to 9999 in UTC. */
export const isStorableInstant = (instant: Date) =>
  /^\d{4}-/.test(instant.toISOString()) && instant.getUTCFullYear() >= 1;

export function characterCount(value: string): number {
  return util.codePointLength(value);
}

/** Text PostgreSQL stores exactly as sent: no NUL, no lone UTF-16 surrogate. */
export function isStorableText(value: string): boolean {
  return !value.includes("\0") && value.isWellFormed();
}

/**
 * A string field: "required" when absent (if required), "must be a string" for any other type. NUL and lone
 * UTF-16 surrogates are refused by name: PostgreSQL cannot store the first, and the second would be stored
 * as U+FFFD, not as sent. `required`: trimmed, and a blank or null one is missing, as Laravel reads input
 * (TrimStrings, then `required`): "The name field is required.", never "must be at least 1 characters".
 */
export function stringField(field: string, options: { max?: number; required?: boolean } = {}) {
  const missing = (input: unknown) => input === undefined || (options.required && input === null);
  let schema = z.string({
    error: (issue) => (missing(issue.input) ? messages.required(field) : messages.string(field)),
  });
  if (options.required) schema = schema.trim();
  schema = schema
    .refine((value) => !value.includes("\0"), messages.noNul(field))
    .refine((value) => value.isWellFormed(), messages.wellFormed(field));
  // As Laravel skips a field's other rules once `required` fails: "required", not also "must be a valid URL".
  if (options.required) schema = schema.min(1, { error: messages.required(field), abort: true });
  if (options.max !== undefined) schema = schema.max(options.max, messages.maxLength(field, options.max));
  return schema;
}

/** One of `values`: "required" when absent, as Laravel's `required|in:…` says it, else "The selected … is invalid." */
export function requiredChoice<const Values extends readonly [string, ...string[]]>(
  field: string,
  values: Values,
) {
  return z.enum(values, {
    error: (issue) => (issue.input === undefined ? messages.required(field) : messages.in(field)),
  });
}

/**
 * A record id as it arrives in a URL, a form field or a CLI flag, in its one canonical spelling: decimal digits
 * without a leading zero (`01` names nothing, as Laravel's integer rule refuses it), at most a safe integer
 * (2^53 − 1: a JSON number, and inside the bigint column; a larger one names nothing either). Ids made on a
 * Citus worker start at its group id × 2^48, 16 digits from the fourth worker on.
 */
export const idParam = z
  .string()
  .regex(/^(?:0|[1-9]\d{0,15})$/)
  .refine((digits) => Number(digits) <= Number.MAX_SAFE_INTEGER)
  .transform(Number);

/** Reads an id or throws the validation error that names its field (server actions, the CLI). */
export function parseId(value: unknown, field = "id"): number {
  const result = idParam.safeParse(value);
  if (!result.success) throw validationError({ [field]: [messages.integer(field)] });
  return result.data;
}

/**
 * Groups zod issues by top-level field, keeping each field's messages in order, as Laravel does. An issue
 * may name its field itself (`params.field`), as Laravel names a nested one: `metadata.order_ref`.
 */
export function fieldErrorsFrom(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const named =
      issue.code === "custom" ? (issue.params as { field?: string } | undefined)?.field : undefined;
    const field = named ?? (issue.path.length > 0 ? String(issue.path[0]) : "body");
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

/** Parses input with its schema or throws the validation DomainError every surface understands. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(fieldErrorsFrom(result.error));
  return result.data;
}

/** A JSON number as the API hands it over (lossless-json keeps numerals as sent), read as a plain number. */
export function jsonNumber<Schema extends z.ZodType>(schema: Schema) {
  return z.preprocess((value) => (isLosslessNumber(value) ? Number(value.value) : value), schema);
}
