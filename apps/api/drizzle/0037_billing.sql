CREATE TABLE "billing_checkouts" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"provider" text NOT NULL,
	"session_id" text NOT NULL,
	"plan_id" text NOT NULL,
	"interval" text NOT NULL,
	"quantity" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"url" text NOT NULL,
	"created_by_uuid" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_checkouts_sessionId_unique" UNIQUE("session_id"),
	CONSTRAINT "billing_checkouts_interval_check" CHECK ("billing_checkouts"."interval" in ('month', 'year')),
	CONSTRAINT "billing_checkouts_status_check" CHECK ("billing_checkouts"."status" in ('open', 'complete', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "billing_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"organization_uuid" uuid,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_invoices" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"provider" text NOT NULL,
	"invoice_id" text NOT NULL,
	"subscription_id" text,
	"number" text,
	"status" text NOT NULL,
	"amount_ht_cents" integer NOT NULL,
	"amount_ttc_cents" integer NOT NULL,
	"currency" text DEFAULT 'eur' NOT NULL,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"issued_at" timestamp with time zone NOT NULL,
	"pdf_url" text,
	"event_at" bigint NOT NULL,
	CONSTRAINT "billing_invoices_invoiceId_unique" UNIQUE("invoice_id")
);
--> statement-breakpoint
-- No row-level security: billing_plans is the platform's catalogue of plans, the same for every
-- organization, read by every member and written by no request (the tenant role may only read it).
CREATE TABLE "billing_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"monthly_cents" integer NOT NULL,
	"yearly_monthly_cents" integer NOT NULL,
	"features" text[] NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "billing_plans_prices_check" CHECK ("billing_plans"."monthly_cents" >= 0 and "billing_plans"."yearly_monthly_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "billing_subscriptions" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"provider" text NOT NULL,
	"subscription_id" text NOT NULL,
	"customer_id" text,
	"item_id" text,
	"plan_id" text NOT NULL,
	"interval" text NOT NULL,
	"status" text NOT NULL,
	"quantity" integer NOT NULL,
	"current_period_start" timestamp with time zone,
	"current_period_end" timestamp with time zone,
	"cancel_at" timestamp with time zone,
	"event_at" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_subscriptions_subscriptionId_unique" UNIQUE("subscription_id"),
	CONSTRAINT "billing_subscriptions_interval_check" CHECK ("billing_subscriptions"."interval" in ('month', 'year'))
);
--> statement-breakpoint
ALTER TABLE "billing_checkouts" ADD CONSTRAINT "billing_checkouts_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_checkouts" ADD CONSTRAINT "billing_checkouts_plan_id_billing_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."billing_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_checkouts" ADD CONSTRAINT "billing_checkouts_created_by_uuid_users_uuid_fk" FOREIGN KEY ("created_by_uuid") REFERENCES "public"."users"("uuid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_invoices" ADD CONSTRAINT "billing_invoices_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_plan_id_billing_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."billing_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_checkouts_organization_idx" ON "billing_checkouts" USING btree ("organization_uuid","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "billing_events_received_idx" ON "billing_events" USING btree ("received_at","event_id");--> statement-breakpoint
CREATE INDEX "billing_invoices_organization_idx" ON "billing_invoices" USING btree ("organization_uuid","issued_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "billing_subscriptions_organization_idx" ON "billing_subscriptions" USING btree ("organization_uuid");--> statement-breakpoint
-- Hand-written (decision 044). An organization's checkouts, subscription and invoices are its data
-- (forced row-level security); they are written only by the billing events (system scope).
SELECT flotte_tenant_table('billing_checkouts');--> statement-breakpoint
SELECT flotte_tenant_table('billing_subscriptions');--> statement-breakpoint
SELECT flotte_tenant_table('billing_invoices');--> statement-breakpoint
-- No row-level security: billing_plans is the platform's catalogue, read by every member and
-- written by no request.
REVOKE INSERT, UPDATE, DELETE ON billing_plans FROM flotte_app;--> statement-breakpoint
-- billing_events: the provider's event ids already applied, with the organization each concerns:
-- forced row-level security like every table holding an organization's data, and system scope
-- only (the tenant role gets no privilege on it).
SELECT flotte_tenant_table('billing_events');--> statement-breakpoint
REVOKE ALL ON billing_events FROM flotte_app;--> statement-breakpoint
INSERT INTO billing_plans (id, name, description, monthly_cents, yearly_monthly_cents, features, position) VALUES
  ('essentiel', 'Essentiel', 'Le suivi de la flotte : sinistres, conducteurs, véhicules, tableau de bord et gestion documentaire.', 900, 750, ARRAY['documents'], 1),
  ('pro', 'Pro', 'Tout Essentiel, plus les alertes prévention pour agir avant le sinistre.', 1200, 1000, ARRAY['documents', 'alerts'], 2);
