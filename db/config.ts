import { z } from "zod";

/**
 * The database's own settings, read from the environment. The platform's configuration check
 * (lib/platform/env.ts) extends this schema, so a bad value is reported at boot with everything else.
 */
export const databaseConfigSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  PGLITE_DATA_DIR: z.string().min(1).default(".data/pglite"),
});

export type DatabaseConfig = z.infer<typeof databaseConfigSchema>;

/** Parsed on first use (never at import, so `next build` reads nothing); lib/platform/env.ts reports errors first. */
export function readDatabaseConfig(): DatabaseConfig {
  return databaseConfigSchema.parse(process.env);
}
