-- Custom migration: drizzle cannot declare partitions (the schema and snapshot only know the composite primary
-- keys). api_request_logs becomes partitioned by day of created_at and webhook_attempts by week of attempted_at
-- (why those widths: lib/platform/history-partitions.ts). Each table is rebuilt in place: the old one is renamed
-- aside, the new one gets the same columns, defaults, identity sequence (continuing where the old one stopped),
-- indexes and foreign keys, partitions covering every existing row and the week ahead, the rows, and then the
-- old table is dropped. The migrator runs this in one transaction: a failure leaves the old tables untouched.
-- One index changes: api_request_logs_merchant_idx is rebuilt in plain DESC (nulls first), the order the Logs
-- page asks for, so a page reads the newest partition's index in order instead of sorting the merchant's log.

-- Creates the missing partitions of `parent` from the one holding from_time through the one holding to_time,
-- UTC days or weeks (Mondays), named parent_pYYYYMMDD. Shared with the background service, so names and bounds
-- are defined once. The advisory lock serialises creators across processes: CREATE TABLE IF NOT EXISTS alone
-- can still fail on the catalog's unique index when two sessions create the same partition at once.
-- Arithmetic is on UTC timestamps without zone, so a session time zone with summer time cannot shift a bound.
CREATE FUNCTION "create_history_partitions"(parent text, width text, from_time timestamptz, to_time timestamptz)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  step interval := ('1 ' || width)::interval;
  start timestamp;
  partition_name text;
  created integer := 0;
BEGIN
  IF width NOT IN ('day', 'week') THEN
    RAISE EXCEPTION 'partition width must be day or week, not %', width;
  END IF;
  PERFORM pg_advisory_xact_lock(72201518);
  FOR start IN
    SELECT generate_series(date_trunc(width, from_time AT TIME ZONE 'UTC'), to_time AT TIME ZONE 'UTC', step)
  LOOP
    partition_name := parent || '_p' || to_char(start, 'YYYYMMDD');
    IF to_regclass(quote_ident(partition_name)) IS NULL THEN
      EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
        partition_name, parent, to_char(start, 'YYYY-MM-DD HH24:MI:SS') || '+00',
        to_char(start + step, 'YYYY-MM-DD HH24:MI:SS') || '+00');
      created := created + 1;
    END IF;
  END LOOP;
  RETURN created;
END $$;
--> statement-breakpoint
ALTER TABLE "api_request_logs" RENAME TO "api_request_logs_unpartitioned";--> statement-breakpoint
ALTER SEQUENCE "api_request_logs_id_seq" RENAME TO "api_request_logs_unpartitioned_id_seq";--> statement-breakpoint
-- Index names are unique per schema: the old ones go first (the copy reads the whole table anyway).
ALTER TABLE "api_request_logs_unpartitioned" DROP CONSTRAINT "api_request_logs_pkey";--> statement-breakpoint
DROP INDEX "api_request_logs_merchant_idx";--> statement-breakpoint
DROP INDEX "api_request_logs_created_idx";--> statement-breakpoint
CREATE TABLE "api_request_logs" (
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "api_request_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1) NOT NULL,
	"merchant_id" bigint NOT NULL,
	"request_id" text NOT NULL,
	"token_id" bigint NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"latency_ms" double precision NOT NULL,
	"client_ip" text NOT NULL,
	"idempotency_key" text,
	"response_body" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_request_logs_id_created_at_pk" PRIMARY KEY("id","created_at")
) PARTITION BY RANGE ("created_at");--> statement-breakpoint
CREATE INDEX "api_request_logs_merchant_idx" ON "api_request_logs" USING btree ("merchant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "api_request_logs_created_idx" ON "api_request_logs" USING brin ("created_at");--> statement-breakpoint
SELECT setval('"api_request_logs_id_seq"', last_value, is_called) FROM "api_request_logs_unpartitioned_id_seq";--> statement-breakpoint
SELECT "create_history_partitions"('api_request_logs', 'day', least(min(created_at), now()),
  greatest(max(created_at), now()) + interval '7 days') FROM "api_request_logs_unpartitioned";--> statement-breakpoint
INSERT INTO "api_request_logs" (id, merchant_id, request_id, token_id, method, path, status, latency_ms, client_ip, idempotency_key, response_body, created_at) OVERRIDING SYSTEM VALUE
  SELECT id, merchant_id, request_id, token_id, method, path, status, latency_ms, client_ip, idempotency_key, response_body, created_at FROM "api_request_logs_unpartitioned";--> statement-breakpoint
DROP TABLE "api_request_logs_unpartitioned";--> statement-breakpoint
ALTER TABLE "webhook_attempts" RENAME TO "webhook_attempts_unpartitioned";--> statement-breakpoint
ALTER SEQUENCE "webhook_attempts_id_seq" RENAME TO "webhook_attempts_unpartitioned_id_seq";--> statement-breakpoint
ALTER TABLE "webhook_attempts_unpartitioned" DROP CONSTRAINT "webhook_attempts_pkey";--> statement-breakpoint
ALTER TABLE "webhook_attempts_unpartitioned" DROP CONSTRAINT "webhook_attempts_merchant_id_merchants_id_fk";--> statement-breakpoint
ALTER TABLE "webhook_attempts_unpartitioned" DROP CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk";--> statement-breakpoint
DROP INDEX "webhook_attempts_delivery_idx";--> statement-breakpoint
DROP INDEX "webhook_attempts_merchant_attempted_idx";--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "webhook_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1) NOT NULL,
	"merchant_id" bigint NOT NULL,
	"delivery_id" bigint NOT NULL,
	"attempted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"response_status" integer,
	"latency_ms" integer NOT NULL,
	"error" text,
	"response_excerpt" text,
	CONSTRAINT "webhook_attempts_id_attempted_at_pk" PRIMARY KEY("id","attempted_at")
) PARTITION BY RANGE ("attempted_at");--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id","attempted_at");--> statement-breakpoint
CREATE INDEX "webhook_attempts_merchant_attempted_idx" ON "webhook_attempts" USING btree ("merchant_id","attempted_at");--> statement-breakpoint
SELECT setval('"webhook_attempts_id_seq"', last_value, is_called) FROM "webhook_attempts_unpartitioned_id_seq";--> statement-breakpoint
SELECT "create_history_partitions"('webhook_attempts', 'week', least(min(attempted_at), now()),
  greatest(max(attempted_at), now()) + interval '7 days') FROM "webhook_attempts_unpartitioned";--> statement-breakpoint
INSERT INTO "webhook_attempts" (id, merchant_id, delivery_id, attempted_at, response_status, latency_ms, error, response_excerpt) OVERRIDING SYSTEM VALUE
  SELECT id, merchant_id, delivery_id, attempted_at, response_status, latency_ms, error, response_excerpt FROM "webhook_attempts_unpartitioned";--> statement-breakpoint
DROP TABLE "webhook_attempts_unpartitioned";
