-- Merchant first in every merchant-owned table's primary key, unique keys and foreign keys (DESIGN.md,
-- "Citus: sharded by merchant"): the shape a table sharded by merchant_id must have. Ids stay unique by
-- themselves (one identity per table). A payer's checkout token and a link's slug stay unique with their
-- merchant and are found by themselves through a plain index. Event stream leases are keyed by their token.
ALTER TABLE "checkouts" DROP CONSTRAINT "checkouts_payment_id_payments_id_fk";
--> statement-breakpoint
ALTER TABLE "checkouts" DROP CONSTRAINT "checkouts_payment_link_id_payment_links_id_fk";
--> statement-breakpoint
ALTER TABLE "events" DROP CONSTRAINT "events_payment_id_payments_id_fk";
--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_payment_id_payments_id_fk";
--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_refund_id_refunds_id_fk";
--> statement-breakpoint
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_payment_id_payments_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_attempts" DROP CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_id_events_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_inbox_captures" DROP CONSTRAINT "webhook_inbox_captures_endpoint_id_webhook_endpoints_id_fk";
--> statement-breakpoint
DROP INDEX "checkouts_token_hash_idx";--> statement-breakpoint
DROP INDEX "payment_links_slug_idx";--> statement-breakpoint
ALTER TABLE "api_request_logs" DROP CONSTRAINT "api_request_logs_id_created_at_pk";--> statement-breakpoint
ALTER TABLE "webhook_attempts" DROP CONSTRAINT "webhook_attempts_id_attempted_at_pk";--> statement-breakpoint
ALTER TABLE "checkouts" DROP CONSTRAINT "checkouts_pkey";--> statement-breakpoint
ALTER TABLE "payment_links" DROP CONSTRAINT "payment_links_pkey";--> statement-breakpoint
ALTER TABLE "event_stream_leases" DROP CONSTRAINT "event_stream_leases_pkey";--> statement-breakpoint
ALTER TABLE "events" DROP CONSTRAINT "events_pkey";--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_pkey";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_pkey";--> statement-breakpoint
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_pkey";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_pkey";--> statement-breakpoint
ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "webhook_endpoints_pkey";--> statement-breakpoint
ALTER TABLE "webhook_inbox_captures" DROP CONSTRAINT "webhook_inbox_captures_pkey";--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_merchant_id_payment_id_pk" PRIMARY KEY("merchant_id","payment_id");--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_merchant_id_id_pk" PRIMARY KEY("merchant_id","id");--> statement-breakpoint
ALTER TABLE "event_stream_leases" ADD CONSTRAINT "event_stream_leases_token_id_id_pk" PRIMARY KEY("token_id","id");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_merchant_id_id_pk" PRIMARY KEY("merchant_id","id");--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_merchant_id_id_pk" PRIMARY KEY("merchant_id","id");--> statement-breakpoint
ALTER TABLE "api_request_logs" ADD CONSTRAINT "api_request_logs_merchant_id_id_created_at_pk" PRIMARY KEY("merchant_id","id","created_at");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_merchant_id_id_pk" PRIMARY KEY("merchant_id","id");--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_merchant_id_id_pk" PRIMARY KEY("merchant_id","id");--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_merchant_id_id_attempted_at_pk" PRIMARY KEY("merchant_id","id","attempted_at");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_merchant_id_id_pk" PRIMARY KEY("merchant_id","id");--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_merchant_id_id_pk" PRIMARY KEY("merchant_id","id");--> statement-breakpoint
ALTER TABLE "webhook_inbox_captures" ADD CONSTRAINT "webhook_inbox_captures_merchant_id_id_pk" PRIMARY KEY("merchant_id","id");--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_payment_fk" FOREIGN KEY ("merchant_id","payment_id") REFERENCES "public"."payments"("merchant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_payment_link_fk" FOREIGN KEY ("merchant_id","payment_link_id") REFERENCES "public"."payment_links"("merchant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_payment_fk" FOREIGN KEY ("merchant_id","payment_id") REFERENCES "public"."payments"("merchant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_payment_fk" FOREIGN KEY ("merchant_id","payment_id") REFERENCES "public"."payments"("merchant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_refund_fk" FOREIGN KEY ("merchant_id","refund_id") REFERENCES "public"."refunds"("merchant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_fk" FOREIGN KEY ("merchant_id","payment_id") REFERENCES "public"."payments"("merchant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_fk" FOREIGN KEY ("merchant_id","delivery_id") REFERENCES "public"."webhook_deliveries"("merchant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_fk" FOREIGN KEY ("merchant_id","event_id") REFERENCES "public"."events"("merchant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_fk" FOREIGN KEY ("merchant_id","endpoint_id") REFERENCES "public"."webhook_endpoints"("merchant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_inbox_captures" ADD CONSTRAINT "webhook_inbox_captures_endpoint_fk" FOREIGN KEY ("merchant_id","endpoint_id") REFERENCES "public"."webhook_endpoints"("merchant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "checkouts_merchant_token_hash_idx" ON "checkouts" USING btree ("merchant_id","token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_links_merchant_slug_idx" ON "payment_links" USING btree ("merchant_id","slug");--> statement-breakpoint
CREATE INDEX "checkouts_token_hash_idx" ON "checkouts" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "payment_links_slug_idx" ON "payment_links" USING btree ("slug");