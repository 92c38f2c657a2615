CREATE TABLE "insurance_contract_guarantees" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"contract_uuid" uuid NOT NULL,
	"guarantee_uuid" uuid NOT NULL,
	"deductible_cents" bigint NOT NULL,
	CONSTRAINT "insurance_contract_guarantees_deductible_check" CHECK ("insurance_contract_guarantees"."deductible_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "insurance_contracts" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"insurer" text NOT NULL,
	"policy_number" text NOT NULL,
	"start_date" date NOT NULL,
	"renewal_date" date NOT NULL,
	"annual_premium_cents" bigint NOT NULL,
	"author_uuid" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "insurance_contracts_premium_check" CHECK ("insurance_contracts"."annual_premium_cents" >= 0),
	CONSTRAINT "insurance_contracts_dates_check" CHECK ("insurance_contracts"."renewal_date" > "insurance_contracts"."start_date")
);
--> statement-breakpoint
CREATE TABLE "insurance_intermediaries" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"name" text NOT NULL,
	"contact_last_name" text NOT NULL,
	"contact_first_name" text NOT NULL,
	"email" text NOT NULL,
	"production_email" text NOT NULL,
	"start_date" timestamp with time zone NOT NULL,
	"author_uuid" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "insurance_contract_guarantees" ADD CONSTRAINT "insurance_contract_guarantees_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insurance_contract_guarantees" ADD CONSTRAINT "insurance_contract_guarantees_contract_uuid_insurance_contracts_uuid_fk" FOREIGN KEY ("contract_uuid") REFERENCES "public"."insurance_contracts"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insurance_contract_guarantees" ADD CONSTRAINT "insurance_contract_guarantees_guarantee_uuid_guarantees_uuid_fk" FOREIGN KEY ("guarantee_uuid") REFERENCES "public"."guarantees"("uuid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insurance_contracts" ADD CONSTRAINT "insurance_contracts_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insurance_contracts" ADD CONSTRAINT "insurance_contracts_author_uuid_users_uuid_fk" FOREIGN KEY ("author_uuid") REFERENCES "public"."users"("uuid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insurance_intermediaries" ADD CONSTRAINT "insurance_intermediaries_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insurance_intermediaries" ADD CONSTRAINT "insurance_intermediaries_author_uuid_users_uuid_fk" FOREIGN KEY ("author_uuid") REFERENCES "public"."users"("uuid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "insurance_contract_guarantees_unique" ON "insurance_contract_guarantees" USING btree ("contract_uuid","guarantee_uuid");--> statement-breakpoint
CREATE INDEX "insurance_contracts_organization_idx" ON "insurance_contracts" USING btree ("organization_uuid","created_at");--> statement-breakpoint
CREATE INDEX "insurance_intermediaries_organization_idx" ON "insurance_intermediaries" USING btree ("organization_uuid","start_date");--> statement-breakpoint
-- Hand-written (Drizzle has no FORCE): tenant isolation as every organization's table (decision 002).
SELECT flotte_tenant_table('insurance_contracts');
--> statement-breakpoint
SELECT flotte_tenant_table('insurance_contract_guarantees');
--> statement-breakpoint
SELECT flotte_tenant_table('insurance_intermediaries');
