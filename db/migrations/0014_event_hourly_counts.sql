CREATE TABLE "event_hourly_counts" (
	"merchant_id" bigint NOT NULL,
	"type" text NOT NULL,
	"hour" timestamp (3) with time zone NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "event_hourly_counts_merchant_id_type_hour_pk" PRIMARY KEY("merchant_id","type","hour")
);
--> statement-breakpoint
ALTER TABLE "event_hourly_counts" ADD CONSTRAINT "event_hourly_counts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_hourly_counts_hour_idx" ON "event_hourly_counts" USING btree ("hour");--> statement-breakpoint
-- The events already recorded, counted once; from here on the outbox statement and the pruner keep the counts.
INSERT INTO "event_hourly_counts" ("merchant_id", "type", "hour", "count")
SELECT "merchant_id", "type", date_bin('1 hour', "created_at", timestamptz '2000-01-01 00:00:00+00'), count(*)
FROM "events" GROUP BY 1, 2, 3;
