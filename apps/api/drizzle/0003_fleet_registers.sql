CREATE TABLE "drivers" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"phone" text,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guarantees" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"label" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "guarantees_label_unique" UNIQUE("label")
);
--> statement-breakpoint
CREATE TABLE "register_counts" (
	"organization_uuid" uuid NOT NULL,
	"register" text NOT NULL,
	"active" bigint DEFAULT 0 NOT NULL,
	"archived" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "register_counts_organization_uuid_register_pk" PRIMARY KEY("organization_uuid","register")
);
--> statement-breakpoint
CREATE TABLE "sinisters" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"vehicule_uuid" uuid,
	"driver_uuid" uuid,
	"guarantee_uuid" uuid,
	"sinister_intermediate_ref" text,
	"sinister_date" date NOT NULL,
	"city" text,
	"ida" boolean DEFAULT false NOT NULL,
	"has_human_injury" boolean DEFAULT false NOT NULL,
	"damaged_vehicule" boolean DEFAULT false NOT NULL,
	"is_third_implicated" boolean DEFAULT false NOT NULL,
	"is_declared" boolean DEFAULT false NOT NULL,
	"responsibility_rate" smallint,
	"immatriculation" text,
	"total_cost_cents" bigint DEFAULT 0 NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sinisters_responsibility_rate_check" CHECK ("sinisters"."responsibility_rate" in (0, 25, 50, 75, 100)),
	CONSTRAINT "sinisters_total_cost_check" CHECK ("sinisters"."total_cost_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "vehicules" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"brand" text,
	"model" text,
	"type" text,
	"circulation_date" date,
	"entry_date" date,
	"exit_date" date,
	"immatriculation" text,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "drivers" ADD CONSTRAINT "drivers_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "register_counts" ADD CONSTRAINT "register_counts_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sinisters" ADD CONSTRAINT "sinisters_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sinisters" ADD CONSTRAINT "sinisters_vehicule_uuid_vehicules_uuid_fk" FOREIGN KEY ("vehicule_uuid") REFERENCES "public"."vehicules"("uuid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sinisters" ADD CONSTRAINT "sinisters_driver_uuid_drivers_uuid_fk" FOREIGN KEY ("driver_uuid") REFERENCES "public"."drivers"("uuid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sinisters" ADD CONSTRAINT "sinisters_guarantee_uuid_guarantees_uuid_fk" FOREIGN KEY ("guarantee_uuid") REFERENCES "public"."guarantees"("uuid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicules" ADD CONSTRAINT "vehicules_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "drivers_org_last_name_idx" ON "drivers" USING btree ("organization_uuid",lower(f_unaccent("last_name")),"uuid");--> statement-breakpoint
CREATE INDEX "drivers_org_first_name_idx" ON "drivers" USING btree ("organization_uuid",lower(f_unaccent("first_name")),"uuid");--> statement-breakpoint
CREATE INDEX "drivers_org_email_idx" ON "drivers" USING btree ("organization_uuid","email","uuid");--> statement-breakpoint
CREATE INDEX "drivers_org_phone_idx" ON "drivers" USING btree ("organization_uuid","phone","uuid");--> statement-breakpoint
CREATE INDEX "drivers_org_created_idx" ON "drivers" USING btree ("organization_uuid","created_at","uuid");--> statement-breakpoint
CREATE INDEX "drivers_search_trgm_idx" ON "drivers" USING gin (f_unaccent("first_name" || ' ' || "last_name" || ' ' || coalesce("email", '') || ' ' || coalesce("phone", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sinisters_org_date_idx" ON "sinisters" USING btree ("organization_uuid","sinister_date","uuid");--> statement-breakpoint
CREATE INDEX "sinisters_org_ref_idx" ON "sinisters" USING btree ("organization_uuid","sinister_intermediate_ref","uuid");--> statement-breakpoint
CREATE INDEX "sinisters_org_city_idx" ON "sinisters" USING btree ("organization_uuid",lower(f_unaccent("city")),"uuid");--> statement-breakpoint
CREATE INDEX "sinisters_org_cost_idx" ON "sinisters" USING btree ("organization_uuid","total_cost_cents","uuid");--> statement-breakpoint
CREATE INDEX "sinisters_org_plate_idx" ON "sinisters" USING btree ("organization_uuid","immatriculation","uuid");--> statement-breakpoint
CREATE INDEX "sinisters_org_created_idx" ON "sinisters" USING btree ("organization_uuid","created_at","uuid");--> statement-breakpoint
CREATE INDEX "sinisters_vehicule_idx" ON "sinisters" USING btree ("vehicule_uuid");--> statement-breakpoint
CREATE INDEX "sinisters_driver_idx" ON "sinisters" USING btree ("driver_uuid");--> statement-breakpoint
CREATE INDEX "sinisters_search_trgm_idx" ON "sinisters" USING gin (f_unaccent(coalesce("sinister_intermediate_ref", '') || ' ' || coalesce("immatriculation", '') || ' ' || coalesce("city", '')) gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "vehicules_org_plate_active_key" ON "vehicules" USING btree ("organization_uuid","immatriculation") WHERE "vehicules"."archived_at" is null and "vehicules"."immatriculation" is not null;--> statement-breakpoint
CREATE INDEX "vehicules_org_plate_idx" ON "vehicules" USING btree ("organization_uuid","immatriculation","uuid");--> statement-breakpoint
CREATE INDEX "vehicules_org_brand_idx" ON "vehicules" USING btree ("organization_uuid",lower(f_unaccent("brand")),"uuid");--> statement-breakpoint
CREATE INDEX "vehicules_org_model_idx" ON "vehicules" USING btree ("organization_uuid",lower(f_unaccent("model")),"uuid");--> statement-breakpoint
CREATE INDEX "vehicules_org_type_idx" ON "vehicules" USING btree ("organization_uuid","type","uuid");--> statement-breakpoint
CREATE INDEX "vehicules_org_circulation_idx" ON "vehicules" USING btree ("organization_uuid","circulation_date","uuid");--> statement-breakpoint
CREATE INDEX "vehicules_org_entry_idx" ON "vehicules" USING btree ("organization_uuid","entry_date","uuid");--> statement-breakpoint
CREATE INDEX "vehicules_org_exit_idx" ON "vehicules" USING btree ("organization_uuid","exit_date","uuid");--> statement-breakpoint
CREATE INDEX "vehicules_org_created_idx" ON "vehicules" USING btree ("organization_uuid","created_at","uuid");--> statement-breakpoint
CREATE INDEX "vehicules_drafts_idx" ON "vehicules" USING btree ("created_at") WHERE "vehicules"."immatriculation" is null;--> statement-breakpoint
CREATE INDEX "vehicules_search_trgm_idx" ON "vehicules" USING gin (f_unaccent(coalesce("immatriculation", '') || ' ' || coalesce("brand", '') || ' ' || coalesce("model", '')) gin_trgm_ops);