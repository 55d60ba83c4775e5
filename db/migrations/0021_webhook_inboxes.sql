CREATE TABLE "webhook_inbox_captures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "webhook_inbox_captures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"endpoint_id" bigint NOT NULL,
	"event_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"headers" json NOT NULL,
	"body" text NOT NULL,
	"body_truncated" boolean DEFAULT false NOT NULL,
	"response_status" integer,
	"verification_valid" boolean NOT NULL,
	"verification_code" text,
	"verification_reason" text NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "kind" text DEFAULT 'url' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "inbox_response_status" integer;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "inbox_response_timeout" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "inbox_response_remaining" integer;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "inbox_window_started_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "inbox_window_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_inbox_captures" ADD CONSTRAINT "webhook_inbox_captures_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_inbox_captures" ADD CONSTRAINT "webhook_inbox_captures_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_inbox_captures_endpoint_idx" ON "webhook_inbox_captures" USING btree ("merchant_id","endpoint_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_inbox_captures_received_idx" ON "webhook_inbox_captures" USING btree ("received_at");