import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { CliError, EXIT } from "./output.js";

export type Credentials = { apiUrl: string; apiKey: string };

/** The user's config directory: XDG_CONFIG_HOME, %APPDATA% on Windows, else ~/.config. */
export function configFile(): string {
  const base =
    process.env.XDG_CONFIG_HOME ||
    (process.platform === "win32" ? process.env.APPDATA : undefined) ||
    path.join(homedir(), ".config");
  return path.join(base, "payments", "config.json");
}

function readStored(): Partial<Credentials> {
  try {
    return JSON.parse(readFileSync(configFile(), "utf8")) as Partial<Credentials>;
  } catch {
    return {};
  }
}

/** Stores a login readable by this user only (0600, in a 0700 directory). */
export function storeCredentials(credentials: Credentials): string {
  const file = configFile();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

/** A URL the CLI can call: http(s), no path beyond the origin's. */
export function parseApiUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(
      `Not a URL: ${value}. Use the platform's address, e.g. http://localhost:3000.`,
      EXIT.usage,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new CliError(`The API URL must start with http:// or https:// (got ${url.protocol}).`, EXIT.usage);
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/** PAYMENTS_API_URL and PAYMENTS_API_KEY win over the stored login. */
export function loadCredentials(): Credentials {
  const stored = readStored();
  const apiUrl = process.env.PAYMENTS_API_URL || stored.apiUrl;
  const apiKey = process.env.PAYMENTS_API_KEY || stored.apiKey;
  if (!apiUrl || !apiKey)
    throw new CliError(
      "Not logged in: run `payments login --api-url <url> --api-key <key>`, or set PAYMENTS_API_URL and PAYMENTS_API_KEY.",
      EXIT.unauthenticated,
    );
  return { apiUrl: parseApiUrl(apiUrl), apiKey };
}

/** `pay_test_…abcd`: enough to tell keys (and their environments) apart, never the key. */
export function keyHint(apiKey: string): string {
  return `${apiKey.slice(0, apiKey.lastIndexOf("_") + 1)}…${apiKey.slice(-4)}`;
}

/** Where `listen` keeps the last event it forwarded, per API URL and key (never the key itself). */
function cursorsFile(): string {
  return path.join(path.dirname(configFile()), "cursors.json");
}

const cursorKey = (credentials: Credentials) =>
  createHash("sha256").update(`${credentials.apiUrl}\n${credentials.apiKey}`).digest("hex").slice(0, 32);

function readCursors(): Record<string, string> {
  try {
    return JSON.parse(readFileSync(cursorsFile(), "utf8")) as Record<string, string>;
  } catch {
    return {};
  }
}

/** The last event `listen` forwarded with these credentials, if any. */
export function storedCursor(credentials: Credentials): string | null {
  return readCursors()[cursorKey(credentials)] ?? null;
}

/**
 * Records the last event forwarded, before `listen` says so: written to a temporary file and renamed over
 * the old one, so a crash leaves the previous cursor or this one, never half a file.
 */
export function storeCursor(credentials: Credentials, eventId: string): void {
  const file = cursorsFile();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const cursors = { ...readCursors(), [cursorKey(credentials)]: eventId };
  writeFileSync(`${file}.tmp`, `${JSON.stringify(cursors, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}
