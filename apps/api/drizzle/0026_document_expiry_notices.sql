CREATE TABLE "document_expiry_notices" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"document_uuid" uuid NOT NULL,
	"expires_on" date NOT NULL,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_expiry_notices" ADD CONSTRAINT "document_expiry_notices_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_expiry_notices" ADD CONSTRAINT "document_expiry_notices_document_uuid_documents_uuid_fk" FOREIGN KEY ("document_uuid") REFERENCES "public"."documents"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "document_expiry_notices_document_expiry_key" ON "document_expiry_notices" USING btree ("document_uuid","expires_on");--> statement-breakpoint
CREATE INDEX "document_expiry_notices_raised_idx" ON "document_expiry_notices" USING btree ("organization_uuid","raised_at");--> statement-breakpoint
-- Hand-written (Drizzle has no FORCE): tenant isolation as every organization's table (decision 002).
SELECT flotte_tenant_table('document_expiry_notices');
