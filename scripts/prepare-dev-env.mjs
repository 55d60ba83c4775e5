// `npm run dev` runs this first: a fresh clone gets an AUTH_SECRET and ENCRYPTION_KEYS in .env.local, so it starts
// with nothing to configure. Production never does this; there the server refuses to start without them.
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, readFileSync } from "node:fs";

const files = [".env", ".env.local", ".env.development", ".env.development.local"];
const generated = {
  AUTH_SECRET: () => randomBytes(33).toString("base64"),
  ENCRYPTION_KEYS: () => randomBytes(32).toString("base64"),
};

for (const [name, generate] of Object.entries(generated)) {
  const defined = files.some(
    (file) =>
      existsSync(file) && new RegExp(`^\\s*${name}\\s*=\\s*\\S`, "m").test(readFileSync(file, "utf8")),
  );
  if (process.env[name] || defined) continue;
  const prefix = existsSync(".env.local") && !readFileSync(".env.local", "utf8").endsWith("\n") ? "\n" : "";
  appendFileSync(
    ".env.local",
    `${prefix}# Generated for local development by scripts/prepare-dev-env.mjs\n${name}=${generate()}\n`,
  );
  console.error(`Generated ${name} into .env.local (development only).`);
}
