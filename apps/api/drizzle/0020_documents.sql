CREATE TABLE "documents" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"parent_uuid" uuid,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"name_key" text GENERATED ALWAYS AS (lower(f_unaccent("documents"."name"))) STORED NOT NULL,
	"file_key" text,
	"size_bytes" bigint,
	"media_type" text,
	"author_uuid" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"trashed_with" uuid,
	"expires_on" date,
	"entity_type" text,
	"entity_uuid" uuid,
	CONSTRAINT "documents_organization_uuid_key" UNIQUE("organization_uuid","uuid"),
	CONSTRAINT "documents_kind_check" CHECK ("documents"."kind" in ('folder', 'file')),
	CONSTRAINT "documents_name_check" CHECK (char_length("documents"."name") between 1 and 255),
	CONSTRAINT "documents_not_own_parent" CHECK ("documents"."parent_uuid" <> "documents"."uuid"),
	CONSTRAINT "documents_file_fields" CHECK (("documents"."kind" = 'folder' and "documents"."file_key" is null and "documents"."size_bytes" is null and "documents"."media_type" is null) or ("documents"."kind" = 'file' and "documents"."file_key" is not null and "documents"."size_bytes" >= 0 and "documents"."media_type" is not null)),
	CONSTRAINT "documents_trash_check" CHECK (("documents"."deleted_at" is null) = ("documents"."trashed_with" is null)),
	CONSTRAINT "documents_entity_check" CHECK (("documents"."entity_type" is null) = ("documents"."entity_uuid" is null))
);
--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_file_key_stored_files_key_fk" FOREIGN KEY ("file_key") REFERENCES "public"."stored_files"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_author_uuid_users_uuid_fk" FOREIGN KEY ("author_uuid") REFERENCES "public"."users"("uuid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_parent_fk" FOREIGN KEY ("organization_uuid","parent_uuid") REFERENCES "public"."documents"("organization_uuid","uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_children_idx" ON "documents" USING btree ("organization_uuid","parent_uuid","kind" DESC NULLS LAST,"name_key","uuid") WHERE "documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "documents_trash_idx" ON "documents" USING btree ("organization_uuid","deleted_at") WHERE "documents"."deleted_at" is not null and "documents"."trashed_with" = "documents"."uuid";--> statement-breakpoint
CREATE INDEX "documents_trashed_with_idx" ON "documents" USING btree ("organization_uuid","trashed_with") WHERE "documents"."trashed_with" is not null;--> statement-breakpoint
CREATE INDEX "documents_expiry_idx" ON "documents" USING btree ("organization_uuid","expires_on") WHERE "documents"."expires_on" is not null and "documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "documents_entity_idx" ON "documents" USING btree ("organization_uuid","entity_type","entity_uuid") WHERE "documents"."entity_uuid" is not null;--> statement-breakpoint
CREATE INDEX "documents_file_key_idx" ON "documents" USING btree ("file_key");--> statement-breakpoint
-- Hand-written (Drizzle has no FORCE, no NULLS NOT DISTINCT index): tenant isolation as every
-- organization's table (decision 002).
SELECT flotte_tenant_table('documents');
--> statement-breakpoint
-- Two live children of one folder (or of the root: NULLS NOT DISTINCT) never share a name, whatever
-- its case. The trash is outside: a name is free again once its document is deleted.
CREATE UNIQUE INDEX "documents_unique_name_idx" ON "documents" ("organization_uuid", "parent_uuid", lower("name")) NULLS NOT DISTINCT WHERE "deleted_at" IS NULL;
--> statement-breakpoint
-- The search across the tree: folded names with a trigram index per organization (decisions 004, 012).
CREATE INDEX "documents_org_search_trgm_idx" ON "documents" USING gin ("organization_uuid", "name_key" gin_trgm_ops) WHERE "deleted_at" IS NULL;
