CREATE TABLE "refund_daily_counts" (
	"merchant_id" bigint NOT NULL,
	"customer_id" text DEFAULT '' NOT NULL,
	"day" date NOT NULL,
	"status" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "refund_daily_counts_merchant_id_customer_id_day_status_pk" PRIMARY KEY("merchant_id","customer_id","day","status")
);
--> statement-breakpoint
DROP INDEX "refunds_merchant_created_idx";--> statement-breakpoint
DROP INDEX "refunds_merchant_customer_created_idx";--> statement-breakpoint
ALTER TABLE "refund_daily_counts" ADD CONSTRAINT "refund_daily_counts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_merchant_status_created_idx" ON "refunds" USING btree ("merchant_id","status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "refunds_merchant_created_idx" ON "refunds" USING btree ("merchant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "refunds_merchant_customer_created_idx" ON "refunds" USING btree ("merchant_id","customer_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE customer_id is not null;