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
	CONSTRAINT "documents_kind_check" CHECK ("documents"."kind" in ('folder', 'file')),
	CONSTRAINT "documents_name_check" CHECK (char_length("documents"."name") between 1 and 255),
	CONSTRAINT "documents_not_own_parent" CHECK ("documents"."parent_uuid" <> "documents"."uuid"),
	CONSTRAINT "documents_file_fields" CHECK (("documents"."kind" = 'folder' and "documents"."file_key" is null and "documents"."size_bytes" is null and "documents"."media_type" is null) or ("documents"."kind" = 'file' and "documents"."file_key" is not null and "documents"."size_bytes" >= 0 and "documents"."media_type" is not null)),
	CONSTRAINT "documents_trash_check" CHECK (("documents"."deleted_at" is null) = ("documents"."trashed_with" is null)),
	CONSTRAINT "documents_entity_check" CHECK (("documents"."entity_type" is null) = ("documents"."entity_uuid" is null))
);
--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_parent_uuid_documents_uuid_fk" FOREIGN KEY ("parent_uuid") REFERENCES "public"."documents"("uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_file_key_stored_files_key_fk" FOREIGN KEY ("file_key") REFERENCES "public"."stored_files"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_author_uuid_users_uuid_fk" FOREIGN KEY ("author_uuid") REFERENCES "public"."users"("uuid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_children_idx" ON "documents" USING btree ("organization_uuid","parent_uuid","kind" DESC NULLS LAST,"name_key","uuid") WHERE "documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "documents_trash_idx" ON "documents" USING btree ("organization_uuid","deleted_at") WHERE "documents"."deleted_at" is not null and "documents"."trashed_with" = "documents"."uuid";--> statement-breakpoint
CREATE INDEX "documents_trashed_with_idx" ON "documents" USING btree ("organization_uuid","trashed_with") WHERE "documents"."trashed_with" is not null;--> statement-breakpoint
CREATE INDEX "documents_expiry_idx" ON "documents" USING btree ("organization_uuid","expires_on") WHERE "documents"."expires_on" is not null and "documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "documents_entity_idx" ON "documents" USING btree ("organization_uuid","entity_type","entity_uuid") WHERE "documents"."entity_uuid" is not null;--> statement-breakpoint
CREATE INDEX "documents_file_key_idx" ON "documents" USING btree ("file_key");--> statement-breakpoint
-- Hand-written (Drizzle has no FORCE): tenant isolation as every organization's table (decision 002).
SELECT flotte_tenant_table('documents');
--> statement-breakpoint
-- A parent is a folder of the same organization, whatever the code above does. (Under row-level
-- security another organization's folder is not even visible here.) The move to PostgreSQL
-- disables user triggers while it copies rows that were checked at their source.
CREATE OR REPLACE FUNCTION documents_parent_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.parent_uuid IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM documents WHERE uuid = NEW.parent_uuid AND organization_uuid = NEW.organization_uuid AND kind = 'folder'
  ) THEN
    RAISE EXCEPTION 'documents: % is not a folder of organization %', NEW.parent_uuid, NEW.organization_uuid USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER documents_parent_check BEFORE INSERT OR UPDATE OF parent_uuid, organization_uuid ON documents
  FOR EACH ROW EXECUTE FUNCTION documents_parent_check();
--> statement-breakpoint
-- Two live children of one folder never share a name, whatever its case (the service checks the
-- root too, under the organization's tree lock: a null parent is distinct here, which lets the move
-- to PostgreSQL insert every row before it fills their parents in). The trash is outside.
CREATE UNIQUE INDEX "documents_unique_name_idx" ON "documents" ("organization_uuid", "parent_uuid", lower("name")) WHERE "deleted_at" IS NULL;
--> statement-breakpoint
-- The search across the tree: folded names with a trigram index per organization (decisions 004, 012).
CREATE INDEX "documents_org_search_trgm_idx" ON "documents" USING gin ("organization_uuid", "name_key" gin_trgm_ops) WHERE "deleted_at" IS NULL;
