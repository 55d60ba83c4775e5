// Stripe's request encoding: application/x-www-form-urlencoded with bracket paths
// (`line_items[0][price_data][currency]=eur`, `metadata[order]=7`, `expand[]=latest_charge`), also used in query
// strings of GET requests. stripe-node sends arrays with indices (`expand[0]=…`); curl users send `expand[]=…`.
import { ApiError } from "./errors";

export type Params = { [key: string]: Value };
export type Value = string | Value[] | Params;

// Keys that would reach Object.prototype through a plain object: dropped.
const unsafe = new Set(["__proto__", "prototype", "constructor"]);

function splitKey(key: string): string[] {
  const open = key.indexOf("[");
  if (open <= 0) return [key];
  const parts = [key.slice(0, open)];
  const re = /\[([^\]]*)\]/g;
  let match: RegExpExecArray | null;
  while ((match = re.exec(key.slice(open))) !== null) parts.push(match[1] ?? "");
  return parts;
}

export function parseForm(text: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = splitKey(key);
    if (parts.some((part) => unsafe.has(part))) continue;
    let node: Params = root;
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      // `a[]` appends: give it the next free index among its siblings.
      const name = part === "" ? String(Object.keys(node).length) : part;
      if (last) {
        node[name] = value;
        return;
      }
      const next = node[name];
      if (typeof next === "object" && !Array.isArray(next)) node = next;
      else node = node[name] = {};
    });
  }
  return arrays(root) as Params;
}

// Objects whose keys are exactly 0..n-1 become arrays, in index order.
function arrays(value: Value): Value {
  if (typeof value === "string" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  for (const key of keys) value[key] = arrays(value[key] as Value);
  const indices = keys.map(Number);
  const isList =
    keys.length > 0 &&
    indices.every((n) => Number.isInteger(n) && n >= 0) &&
    [...indices].sort((a, b) => a - b).every((n, i) => n === i);
  if (!isList) return value;
  return [...keys].sort((a, b) => Number(a) - Number(b)).map((key) => value[key] as Value);
}

/** A stable text of the params, for comparing an idempotent retry with its first request. */
export function canonical(value: Value | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
}

// Readers that answer with Stripe's own parameter errors.

export function str(params: Params, name: string, path = name): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string")
    throw ApiError.invalid(path, `Invalid string: ${path}`, "parameter_invalid_string");
  return value;
}

export function requiredStr(params: Params, name: string, path = name): string {
  const value = str(params, name, path);
  if (value === undefined || value === "") throw ApiError.missing(path);
  return value;
}

export function int(params: Params, name: string, path = name): number | undefined {
  const value = str(params, name, path);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) {
    throw ApiError.invalid(path, `Invalid integer: ${value}`, "parameter_invalid_integer");
  }
  return Number(value);
}

export function positiveInt(params: Params, name: string, path = name): number | undefined {
  const value = int(params, name, path);
  if (value !== undefined && value < 1) {
    throw ApiError.invalid(
      path,
      "This value must be greater than or equal to 1.",
      "parameter_invalid_integer",
    );
  }
  return value;
}

export function obj(params: Params, name: string, path = name): Params | undefined {
  const value = params[name];
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw ApiError.invalid(path, `Invalid object: ${path}`, "parameter_invalid_empty");
  }
  return value;
}

export function list(params: Params, name: string, path = name): Value[] | undefined {
  const value = params[name];
  if (value === undefined || value === "") return undefined;
  if (!Array.isArray(value))
    throw ApiError.invalid(path, `Invalid array: ${path}`, "parameter_invalid_array");
  return value;
}

export function strings(params: Params, name: string): string[] {
  return (list(params, name) ?? []).map((item, i) => {
    if (typeof item !== "string") throw ApiError.invalid(`${name}[${i}]`, `Invalid string: ${name}[${i}]`);
    return item;
  });
}

/** Stripe metadata: string values only; an empty value unsets a key. */
export function metadata(params: Params, name = "metadata", base: Record<string, string> = {}) {
  const given = obj(params, name);
  const out = { ...base };
  for (const [key, value] of Object.entries(given ?? {})) {
    if (typeof value !== "string")
      throw ApiError.invalid(`${name}[${key}]`, `Invalid string: ${name}[${key}]`);
    if (value === "") delete out[key];
    else out[key] = value;
  }
  return out;
}

/** Stripe refuses parameters it does not know. */
export function onlyKnown(params: Params, known: readonly string[], prefix = "") {
  for (const key of Object.keys(params)) {
    if (!known.includes(key)) {
      const path = prefix ? `${prefix}[${key}]` : key;
      throw ApiError.invalid(path, `Received unknown parameter: ${path}`, "parameter_unknown");
    }
  }
}
