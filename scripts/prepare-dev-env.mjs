// `npm run dev` runs this first: a fresh clone gets an AUTH_SECRET in .env.local, so it starts with nothing to
// configure. Production never does this; there the server refuses to start without AUTH_SECRET.
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, readFileSync } from "node:fs";

const files = [".env", ".env.local", ".env.development", ".env.development.local"];
const defined = files.some(
  (file) => existsSync(file) && /^\s*AUTH_SECRET\s*=\s*\S/m.test(readFileSync(file, "utf8")),
);

if (!process.env.AUTH_SECRET && !defined) {
  const prefix = existsSync(".env.local") && !readFileSync(".env.local", "utf8").endsWith("\n") ? "\n" : "";
  appendFileSync(
    ".env.local",
    `${prefix}# Generated for local development by scripts/prepare-dev-env.mjs\nAUTH_SECRET=${randomBytes(33).toString("base64")}\n`,
  );
  console.error("Generated AUTH_SECRET into .env.local (development only).");
}
