-- Read-your-writes with read replicas (db/replicas.ts). Unlogged: it is written after a merchant's writes and
-- read only on the primary, so it needs no WAL (a replica never reads it); a crash empties it.
CREATE UNLOGGED TABLE "merchant_write_positions" (
	"merchant_id" bigint PRIMARY KEY NOT NULL,
	"lsn" "pg_lsn" NOT NULL
);
