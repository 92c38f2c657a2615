CREATE TABLE "import_changes" (
	"import_uuid" uuid NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"record_uuid" uuid NOT NULL,
	"action" text NOT NULL,
	"before" jsonb,
	"written_at" timestamp with time zone NOT NULL,
	CONSTRAINT "import_changes_action_check" CHECK ("import_changes"."action" in ('created', 'updated', 'exited'))
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"author_uuid" uuid,
	"entity" text NOT NULL,
	"file_name" text NOT NULL,
	"file_key" text NOT NULL,
	"row_count" integer NOT NULL,
	"headers" jsonb NOT NULL,
	"mapping" jsonb,
	"mode" text,
	"status" text DEFAULT 'previewed' NOT NULL,
	"percent" integer DEFAULT 0 NOT NULL,
	"counts" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"committed_at" timestamp with time zone,
	"reverted_at" timestamp with time zone,
	CONSTRAINT "imports_status_check" CHECK ("imports"."status" in ('previewed', 'queued', 'running', 'committed', 'failed', 'reverted')),
	CONSTRAINT "imports_percent_check" CHECK ("imports"."percent" between 0 and 100)
);
--> statement-breakpoint
ALTER TABLE "import_changes" ADD CONSTRAINT "import_changes_import_uuid_imports_uuid_fk" FOREIGN KEY ("import_uuid") REFERENCES "public"."imports"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_changes" ADD CONSTRAINT "import_changes_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_author_uuid_users_uuid_fk" FOREIGN KEY ("author_uuid") REFERENCES "public"."users"("uuid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_file_key_stored_files_key_fk" FOREIGN KEY ("file_key") REFERENCES "public"."stored_files"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_changes_import_idx" ON "import_changes" USING btree ("import_uuid");--> statement-breakpoint
CREATE INDEX "imports_organization_idx" ON "imports" USING btree ("organization_uuid","created_at");--> statement-breakpoint
CREATE INDEX "imports_last_mapping_idx" ON "imports" USING btree ("organization_uuid","entity","committed_at");--> statement-breakpoint
-- Hand-written (Drizzle has no FORCE): tenant isolation as every organization's table (decision 002).
SELECT flotte_tenant_table('imports');
--> statement-breakpoint
SELECT flotte_tenant_table('import_changes');
