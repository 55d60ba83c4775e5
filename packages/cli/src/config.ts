import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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

/** `pay_…abcd`: enough to tell keys apart, never the key. */
export function keyHint(apiKey: string): string {
  return `${apiKey.slice(0, 4)}…${apiKey.slice(-4)}`;
}
