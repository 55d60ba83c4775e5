import "server-only";
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { getEnv } from "./env";

/**
 * Secrets that must be recovered (webhook signing secrets, TOTP secrets) are encrypted with AES-256-GCM under
 * `ENCRYPTION_KEYS`: a list whose first key encrypts and all of which decrypt, so a key is rotated by putting a
 * new one first, running `admin secrets:reencrypt`, then dropping the old one. Stored as
 * `v2.<key id>.<iv>.<tag>.<ciphertext>`; the key id (8 hex digits of the key's SHA-256) names the key without
 * revealing it. Rows from before ENCRYPTION_KEYS (`v1.…`, under a key derived from AUTH_SECRET) still decrypt
 * while AUTH_SECRET is unchanged; reencrypt moves them.
 */
type Key = { id: string; key: Buffer };

/**
 * The columns that hold encrypted secrets: moved by reencrypt (by their table's key, `id` unless named), and
 * checked at boot unless the table grows with payments (a scan of it at every boot would cost seconds).
 */
/** Each encrypted column, with its table's primary key (re-encryption pages through it in key order). */
const ENCRYPTED_COLUMNS: Array<{ table: string; column: string; key: string[]; checkedAtBoot?: false }> = [
  { table: "webhook_endpoints", column: "secret_ciphertext", key: ["merchant_id", "id"] },
  { table: "webhook_endpoints", column: "previous_secret_ciphertext", key: ["merchant_id", "id"] },
  { table: "users", column: "totp_secret_ciphertext", key: ["id"] },
  { table: "users", column: "totp_pending_ciphertext", key: ["id"] },
  // A checkout page's token: under a dropped key, its payment's checkout_url reads as null (and is logged).
  {
    table: "checkouts",
    column: "token_ciphertext",
    key: ["merchant_id", "payment_id"],
    checkedAtBoot: false,
  },
  { table: "payout_accounts", column: "iban_ciphertext", key: ["merchant_id"] },
  // A processor's key and Stripe's signing secret (lib/processors/connections.ts).
  { table: "processor_connections", column: "key_ciphertext", key: ["merchant_id"] },
  { table: "processor_connections", column: "webhook_secret_ciphertext", key: ["merchant_id"] },
  // A processor's hosted page, the payment's checkout_url: as the token beside it.
  {
    table: "checkouts",
    column: "hosted_url_ciphertext",
    key: ["merchant_id", "payment_id"],
    checkedAtBoot: false,
  },
];

export const keyId = (key: Buffer) => createHash("sha256").update(key).digest("hex").slice(0, 8);

let cachedKeys: Key[] | undefined;

function keyring(): Key[] {
  cachedKeys ??= (getEnv().ENCRYPTION_KEYS ?? []).map((key) => ({ id: keyId(key), key }));
  return cachedKeys;
}

function legacyKey(): Buffer | undefined {
  const secret = getEnv().AUTH_SECRET;
  return secret
    ? Buffer.from(hkdfSync("sha256", secret, "payments-webhook-secrets", "aes-256-gcm", 32))
    : undefined;
}

export class UndecryptableSecretError extends Error {}

export function encryptSecret(plaintext: string): string {
  const [current] = keyring();
  if (!current)
    throw new Error(
      "ENCRYPTION_KEYS is required to encrypt secrets (generate one: openssl rand -base64 32; npm run dev writes one into .env.local).",
    );
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", current.key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v2", current.id, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === "string" ? part : part.toString("base64")))
    .join(".");
}

/**
 * `length` bytes only this deployment can make from `input`: HKDF under the current encryption key, for values
 * that must come out the same on a retry yet be unguessable (a processor payment's checkout token).
 */
export function derivedBytes(purpose: string, input: string, length: number): Buffer {
  const [current] = keyring();
  if (!current) throw new Error("ENCRYPTION_KEYS is required to derive secrets.");
  return Buffer.from(hkdfSync("sha256", current.key, input, purpose, length));
}

export function decryptSecret(stored: string): string {
  const parts = stored.split(".");
  const [version] = parts;
  const key =
    version === "v2"
      ? keyring().find((candidate) => candidate.id === parts[1])?.key
      : version === "v1"
        ? legacyKey()
        : undefined;
  const [iv, tag, ciphertext] = version === "v2" ? parts.slice(2) : parts.slice(1);
  if (!key || !iv || !tag || !ciphertext)
    throw new UndecryptableSecretError(
      version === "v2" ? `No key ${parts[1]} in ENCRYPTION_KEYS.` : "Unreadable secret.",
    );
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64")), decipher.final()]).toString(
    "utf8",
  );
}

function canDecrypt(stored: string): boolean {
  try {
    decryptSecret(stored);
    return true;
  } catch {
    return false;
  }
}

/**
 * At boot: every stored secret's key is at hand. A key dropped from ENCRYPTION_KEYS too early (or a changed
 * AUTH_SECRET with v1 rows left) stops the process with a message naming the variable, instead of failing
 * each webhook later. One grouped scan per column (endpoints are few); one sample decrypted per key.
 */
export async function checkStoredSecrets(db: Executor): Promise<void> {
  for (const { table, column } of ENCRYPTED_COLUMNS.filter((each) => each.checkedAtBoot !== false)) {
    const groups = await selectRows<{ key: string; count: number; sample: string }>(
      db,
      sql`select case when ${sql.identifier(column)} like 'v2.%' then split_part(${sql.identifier(column)}, '.', 2)
                      else 'AUTH_SECRET' end as key,
                 count(*)::int as count, min(${sql.identifier(column)}) as sample
          from ${sql.identifier(table)} where ${sql.identifier(column)} is not null group by 1`,
    );
    const missing = groups.filter((group) => !canDecrypt(group.sample));
    if (missing.length > 0)
      throw new UndecryptableSecretError(
        `ENCRYPTION_KEYS: ${missing
          .map((group) =>
            group.key === "AUTH_SECRET"
              ? `${group.count} secret(s) in ${table}.${column} are under the key derived from AUTH_SECRET, which has changed`
              : `${group.count} secret(s) in ${table}.${column} are under key ${group.key}, which ENCRYPTION_KEYS does not hold`,
          )
          .join(
            "; ",
          )}. Put the old key back after the current one, then run: npm run admin -- secrets:reencrypt`,
      );
  }
}

/** Re-encrypts every stored secret not under the current key (the first of ENCRYPTION_KEYS), in batches. */
export async function reencryptStoredSecrets(db: Executor, batchSize = 100): Promise<number> {
  const current = encryptSecret("").split(".")[1]!;
  let moved = 0;
  for (const { table, column, key } of ENCRYPTED_COLUMNS) {
    const keyColumns = sql.join(
      key.map((name) => sql.identifier(name)),
      sql`, `,
    );
    const keyOf = (values: Array<number | string>) =>
      sql.join(
        values.map((value) => sql`${value}::bigint`),
        sql`, `,
      );
    let after: Array<number | string> = key.map(() => 0);
    for (;;) {
      const rows = await selectRows<{ key: Array<number | string>; stored: string }>(
        db,
        sql`select array[${keyColumns}] as key, ${sql.identifier(column)} as stored from ${sql.identifier(table)}
            where (${keyColumns}) > (${keyOf(after)}) and ${sql.identifier(column)} is not null
              and ${sql.identifier(column)} not like ${`v2.${current}.%`}
            order by ${keyColumns} limit ${batchSize}`,
      );
      for (const row of rows) {
        // Only if unchanged since read: a secret rotated meanwhile is already under the current key.
        const updated = await selectRows(
          db,
          sql`update ${sql.identifier(table)} set ${sql.identifier(column)} = ${encryptSecret(decryptSecret(row.stored))}
              where (${keyColumns}) = (${keyOf(row.key)}) and ${sql.identifier(column)} = ${row.stored} returning 1`,
        );
        moved += updated.length;
      }
      if (rows.length < batchSize) break;
      after = rows.at(-1)!.key;
    }
  }
  return moved;
}
