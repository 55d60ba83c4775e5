ALTER TABLE "refunds" ADD COLUMN "processor" text DEFAULT 'simulator' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "processor_refund_id" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "processor_checked_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_merchant_processor_refund_idx" ON "refunds" USING btree ("merchant_id","processor_refund_id") WHERE processor_refund_id is not null;--> statement-breakpoint
CREATE INDEX "refunds_processor_pending_idx" ON "refunds" USING btree ("created_at") WHERE status = 'pending' and processor <> 'simulator';--> statement-breakpoint
-- Who connected a processor is the security history's (processor.connected): the column was never written.
ALTER TABLE "processor_connections" DROP COLUMN "connected_by";--> statement-breakpoint
-- settle_refund takes who moves it (db/functions/refunds.sql): its former signature goes.
DROP FUNCTION IF EXISTS settle_refund(bigint, bigint, text, text, text, boolean);
