import { spawn } from "node:child_process";
import { createCipheriv, hkdfSync, randomBytes } from "node:crypto";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyId } from "@/lib/platform/encryption";
import { startMollieStandIn } from "../support/processors/mollie";
import { runAdmin, runAdminAsync, testEnvironment, uniqueEmail } from "../support/test-server";

// A database of its own (the boot check reads every stored secret, so the suite's must not be in it).
const postgresUrl = process.env.DATABASE_URL;
const privateName = `${postgresUrl ? new URL(postgresUrl).pathname.slice(1) : "pglite"}_keys_${randomBytes(3).toString("hex")}`;
const base = testEnvironment("keys", 0);
const env: Record<string, string | undefined> = postgresUrl
  ? { ...base, DATABASE_URL: Object.assign(new URL(postgresUrl), { pathname: `/${privateName}` }).href }
  : base;

/** Runs one statement on the private database, between CLI runs (PGlite admits one process at a time). */
async function query<T>(text: string): Promise<T[]> {
  if (postgresUrl) {
    const sql = postgres(env.DATABASE_URL!, { max: 1, prepare: false, onnotice: () => {} });
    try {
      return (await sql.unsafe(text)) as unknown as T[];
    } finally {
      await sql.end();
    }
  }
  const db = new PGlite(path.resolve(env.PGLITE_DATA_DIR!));
  try {
    return (await db.query<T>(text)).rows;
  } finally {
    await db.close();
  }
}

async function onServer(text: string) {
  const sql = postgres(postgresUrl!, { max: 1, prepare: false, onnotice: () => {} });
  try {
    await sql.unsafe(text);
  } finally {
    await sql.end();
  }
}

beforeAll(() => (postgresUrl ? onServer(`create database ${privateName}`) : undefined));
afterAll(() => (postgresUrl ? onServer(`drop database if exists ${privateName} with (force)`) : undefined));

const key = () => randomBytes(32).toString("base64");
const idOf = (encoded: string) => keyId(Buffer.from(encoded, "base64"));

/** Boots a worker process (it runs the platform's boot checks): whether it started, then stops it. */
function boot(extra: Record<string, string>): Promise<{ started: boolean; output: string }> {
  const worker = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=react-server", "scripts/worker.ts"],
    {
      env: { ...env, ...extra } as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  return new Promise((resolve) => {
    const record = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Webhook worker running")) worker.kill("SIGTERM");
    };
    worker.stdout.on("data", record);
    worker.stderr.on("data", record);
    worker.once("exit", () => resolve({ started: output.includes("Webhook worker running"), output }));
  });
}

/** A secret in the format of the first release: AES-256-GCM under a key derived from AUTH_SECRET. */
function legacyCiphertext(plaintext: string, authSecret: string): string {
  const derived = Buffer.from(hkdfSync("sha256", authSecret, "payments-webhook-secrets", "aes-256-gcm", 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derived, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), body]
    .map((part) => (typeof part === "string" ? part : part.toString("base64")))
    .join(".");
}

describe("ENCRYPTION_KEYS", () => {
  it("rotates: a missing key stops the boot naming the variable; reencrypt moves every secret to the new key (a processor's key too)", async () => {
    const oldKey = key();
    const newKey = key();
    const authSecret = env.AUTH_SECRET!;
    const owner = uniqueEmail("keys");
    const admin = (args: string[], keys: string) =>
      runAdmin([...args, "--json"], { ...env, ENCRYPTION_KEYS: keys });
    expect(admin(["merchant:create", "--email", owner, "--password", "long enough pw"], oldKey).status).toBe(
      0,
    );
    const created = admin(["webhook:create", "--email", owner, "--url", "https://example.com/hooks"], oldKey);
    expect(created.stderr).toBe("");
    // A processor's key (its environment connected to the Mollie stand-in, which this process serves).
    const mollie = await startMollieStandIn();
    try {
      const connected = await runAdminAsync(
        [
          "processor:connect",
          "--email",
          owner,
          "--processor",
          "mollie",
          "--key",
          mollie.addKey(),
          "--sandbox",
          "Test",
          "--json",
        ],
        {
          ...env,
          ENCRYPTION_KEYS: oldKey,
          MOLLIE_API_URL: mollie.apiEndpoint,
          PROCESSOR_CA_FILE: mollie.caFile,
        },
      );
      expect([connected.status, connected.stderr]).toEqual([0, ""]);
    } finally {
      await mollie.close();
    }
    // A second endpoint as the first release stored it.
    admin(["webhook:create", "--email", owner, "--url", "https://example.com/legacy"], oldKey);
    await query(
      `update webhook_endpoints set secret_ciphertext = '${legacyCiphertext("whsec_legacy", authSecret)}' where url = 'https://example.com/legacy'`,
    );

    // The session secret rotated: the legacy row cannot be read, and the boot says so.
    const rotatedSession = await boot({
      ENCRYPTION_KEYS: oldKey,
      AUTH_SECRET: randomBytes(33).toString("base64"),
    });
    expect(rotatedSession.started).toBe(false);
    expect(rotatedSession.output).toContain(
      "ENCRYPTION_KEYS: 1 secret(s) in webhook_endpoints.secret_ciphertext are under the key derived from AUTH_SECRET",
    );

    // The old key dropped too early.
    const dropped = await boot({ ENCRYPTION_KEYS: newKey });
    expect(dropped.started).toBe(false);
    expect(dropped.output).toContain(`are under key ${idOf(oldKey)}, which ENCRYPTION_KEYS does not hold`);
    expect(dropped.output).not.toContain(oldKey);

    // New key first, old kept: boots; reencrypt moves both rows; then the old key (and AUTH_SECRET) can go.
    expect((await boot({ ENCRYPTION_KEYS: `${newKey},${oldKey}` })).started).toBe(true);
    const moved = admin(["secrets:reencrypt"], `${newKey},${oldKey}`);
    expect(moved.stderr).toBe("");
    expect(JSON.parse(moved.stdout)).toEqual({ reencrypted: 3, key: idOf(newKey) });
    const rows = await query<{ ciphertext: string }>(
      `select secret_ciphertext as ciphertext from webhook_endpoints
       union all select key_ciphertext from processor_connections`,
    );
    expect(rows.map((row) => row.ciphertext.split(".").slice(0, 2).join("."))).toEqual([
      `v2.${idOf(newKey)}`,
      `v2.${idOf(newKey)}`,
      `v2.${idOf(newKey)}`,
    ]);
    const afterRotation = await boot({
      ENCRYPTION_KEYS: newKey,
      AUTH_SECRET: randomBytes(33).toString("base64"),
    });
    expect(afterRotation.started).toBe(true);
    expect(JSON.parse(admin(["secrets:reencrypt"], newKey).stdout)).toEqual({
      reencrypted: 0,
      key: idOf(newKey),
    });
  });

  it("refuses a malformed key at boot, naming the variable", async () => {
    const result = await boot({ ENCRYPTION_KEYS: "too-short" });
    expect(result.started).toBe(false);
    expect(result.output).toContain("ENCRYPTION_KEYS: key 1 is not 32 bytes in base64");
  });
});
