DROP INDEX "payments_merchant_external_id_idx";--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "display_currency" text;--> statement-breakpoint
CREATE INDEX "payments_merchant_external_id_prefix_idx" ON "payments" USING btree ("merchant_id",lower("external_id") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "payments_merchant_customer_idx" ON "payments" USING btree ("merchant_id","customer_id");--> statement-breakpoint
CREATE INDEX "webhook_attempts_merchant_attempted_idx" ON "webhook_attempts" USING btree ("merchant_id","attempted_at");