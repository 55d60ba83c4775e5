-- Made by migration 0033 on a database that migrated through it with this file; a database that ran 0033 before
-- it moved its backfill out (in one transaction) gets them empty here.
CREATE TABLE IF NOT EXISTS "backfills" (
	"name" text PRIMARY KEY NOT NULL,
	"position" text DEFAULT '' NOT NULL,
	"through" text DEFAULT '' NOT NULL,
	"done_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "currency_backfills" (
	"merchant_id" bigint PRIMARY KEY NOT NULL REFERENCES "public"."merchants"("id") ON DELETE cascade,
	"currency" text NOT NULL
);
