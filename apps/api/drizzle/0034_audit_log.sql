CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_uuid" uuid NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_uuid" uuid NOT NULL,
	"actor_name" text NOT NULL,
	"actor_email" text NOT NULL,
	"actor_role" text NOT NULL,
	"entity" text NOT NULL,
	"record_uuid" uuid NOT NULL,
	"label" text,
	"action" text NOT NULL,
	"changed" text[],
	"before" jsonb,
	"after" jsonb,
	CONSTRAINT "audit_log_action_check" CHECK ("audit_log"."action" in ('insert', 'update', 'archive', 'restore', 'delete'))
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_organization_idx" ON "audit_log" USING btree ("organization_uuid","occurred_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_record_idx" ON "audit_log" USING btree ("organization_uuid","record_uuid");--> statement-breakpoint
-- Hand-written (decision 041): the organization's activity log, kept by the database itself.
-- Who writes is the transaction's `app.actor` (db/scope.ts: the signed-in user of the request and
-- its role, as JSON), set with the tenant scope of every write transaction; without it (jobs,
-- seeds, a queued import, the bench) nothing is recorded, and the trigger returns at once.
ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE audit_log FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON audit_log FOR SELECT TO flotte_app USING (organization_uuid = app_current_org());
--> statement-breakpoint
CREATE POLICY tenant_record ON audit_log FOR INSERT TO flotte_app WITH CHECK (organization_uuid = app_current_org());
--> statement-breakpoint
CREATE POLICY system_access ON audit_log FOR SELECT TO flotte_system USING (true);
--> statement-breakpoint
CREATE POLICY system_record ON audit_log FOR INSERT TO flotte_system WITH CHECK (true);
--> statement-breakpoint
-- Written once, never changed nor removed by the application (an organization's deletion takes
-- its log with it through the foreign key).
REVOKE ALL ON audit_log FROM flotte_app, flotte_system;
--> statement-breakpoint
GRANT SELECT, INSERT ON audit_log TO flotte_app, flotte_system;
--> statement-breakpoint
GRANT USAGE, SELECT ON SEQUENCE audit_log_id_seq TO flotte_app, flotte_system;
--> statement-breakpoint
-- A stored plate as the app shows it, as formatPlate of the contract (plates.ts) does: SIV
-- AB-123-CD, FNI 123 ABC 45, any other as stored.
CREATE OR REPLACE FUNCTION audit_plate(plate text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN plate ~ '^[A-HJ-NP-TV-Z]{2}[0-9]{3}[A-HJ-NP-TV-Z]{2}$' THEN regexp_replace(plate, '^(..)(...)(..)$', '\1-\2-\3')
    WHEN plate ~ '^[0-9]{1,4}[A-HJ-NP-Z]{1,3}(0[1-9]|[1-8][0-9]|9[0-5]|2A|2B|97[1-6])$'
      THEN regexp_replace(plate, '^([0-9]{1,4})([A-HJ-NP-Z]{1,3})(0[1-9]|[1-8][0-9]|9[0-5]|2A|2B|97[1-6])$', '\1 \2 \3')
    ELSE plate
  END
$$;
--> statement-breakpoint
-- What names a record in the log, as it was.
CREATE OR REPLACE FUNCTION audit_label(entity text, j jsonb) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE entity
    WHEN 'vehicule' THEN coalesce(audit_plate(j->>'immatriculation'), nullif(concat_ws(' ', j->>'brand', j->>'model'), ''))
    WHEN 'driver' THEN concat_ws(' ', j->>'first_name', j->>'last_name')
    WHEN 'sinister' THEN coalesce(j->>'sinister_intermediate_ref', audit_plate(j->>'immatriculation'), j->>'sinister_date')
    WHEN 'document' THEN j->>'name'
    WHEN 'insuranceContract' THEN concat_ws(' ', j->>'insurer', j->>'policy_number')
    WHEN 'insuranceIntermediary' THEN j->>'name'
    WHEN 'indicator' THEN concat_ws(' – ', j->>'start_date', j->>'end_date')
    WHEN 'member' THEN (SELECT concat_ws(' ', u.first_name, u.last_name) FROM users u WHERE u.uuid = (j->>'user_uuid')::uuid)
    WHEN 'invitation' THEN j->>'email'
    WHEN 'organization' THEN j->>'title'
  END
$$;
--> statement-breakpoint
-- One statement-level trigger per write kind (the registers' count triggers already keep the same
-- transition tables, so the log adds no copy of the rows to them). Arguments: the record's kind,
-- its key column, its organization's column. Only a signed-in person's own statements are
-- recorded: without app.actor, or for a write another trigger or a cascade made (depth > 1: its
-- cause is recorded), it returns at once.
-- A record's fields as the log keeps them: without its keys (told apart), what PostgreSQL derives
-- (every generated column: search texts, sort keys, totals; the claim's copy of its driver's
-- name), the bookkeeping dates, and never a secret (an invitation's token hash). An update keeps
-- the fields it changed, before and after, and records nothing when it changed none; one that sets
-- or clears archived_at (deleted_at for a document: the trash) is an archive or a restore.
CREATE OR REPLACE FUNCTION audit_log_record() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  setting text := current_setting('app.actor', true);
  actor jsonb;
  entity text := TG_ARGV[0];
  key_col text := TG_ARGV[1];
  org_col text := TG_ARGV[2];
  actor_name text := '';
  actor_email text := '';
  dropped text[];
BEGIN
  IF setting IS NULL OR setting = '' OR pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  actor := setting::jsonb;
  SELECT concat_ws(' ', u.first_name, u.last_name), u.email INTO actor_name, actor_email FROM users u WHERE u.uuid = (actor->>'uuid')::uuid;
  dropped := ARRAY['uuid', 'organization_uuid', 'created_at', 'updated_at', 'token_hash', 'password_hash', 'driver_name', 'trashed_with', 'file_key']
    || coalesce((SELECT array_agg(a.attname::text) FROM pg_attribute a WHERE a.attrelid = TG_RELID AND a.attgenerated <> '' AND NOT a.attisdropped), '{}');
  -- Each row is turned into jsonb once (MATERIALIZED: the planner would otherwise repeat it, and
  -- the changed-field list, for every use).
  IF TG_OP = 'INSERT' THEN
    WITH r AS MATERIALIZED (SELECT to_jsonb(n) AS j FROM new_rows n)
    INSERT INTO audit_log (organization_uuid, actor_uuid, actor_name, actor_email, actor_role, entity, record_uuid, label, action, after)
    SELECT (r.j->>org_col)::uuid, (actor->>'uuid')::uuid, coalesce(actor_name, ''), coalesce(actor_email, ''), actor->>'role', entity,
           (r.j->>key_col)::uuid, audit_label(entity, r.j), 'insert', r.j - dropped
    FROM r;
  ELSIF TG_OP = 'DELETE' THEN
    WITH r AS MATERIALIZED (SELECT to_jsonb(o) AS j FROM old_rows o)
    INSERT INTO audit_log (organization_uuid, actor_uuid, actor_name, actor_email, actor_role, entity, record_uuid, label, action, before)
    SELECT (r.j->>org_col)::uuid, (actor->>'uuid')::uuid, coalesce(actor_name, ''), coalesce(actor_email, ''), actor->>'role', entity,
           (r.j->>key_col)::uuid, audit_label(entity, r.j), 'delete', r.j - dropped
    FROM r;
  ELSE
    -- Old and new rows joined on their typed key, planned for this statement's row counts.
    EXECUTE format($q$
      WITH p AS MATERIALIZED (
        SELECT to_jsonb(n) AS nj, to_jsonb(o) - $5 AS oldf, to_jsonb(n) - $5 AS newf
        FROM old_rows o JOIN new_rows n ON n.%1$I = o.%1$I
      ),
      -- Unchanged rows cost one comparison: only the others are taken apart field by field.
      d AS MATERIALIZED (
        SELECT p.nj, p.oldf, p.newf,
               ARRAY(SELECT k FROM jsonb_object_keys(p.newf) k WHERE p.newf->k IS DISTINCT FROM p.oldf->k ORDER BY k) AS changed
        FROM p WHERE p.newf <> p.oldf
      )
      INSERT INTO audit_log (organization_uuid, actor_uuid, actor_name, actor_email, actor_role, entity, record_uuid, label, action, changed, before, after)
      SELECT (d.nj->>$6)::uuid, ($1->>'uuid')::uuid, $2, $3, $1->>'role', $4,
             (d.nj->>$7)::uuid, audit_label($4, d.nj),
             CASE
               WHEN 'archived_at' = ANY (d.changed) THEN CASE WHEN d.newf->'archived_at' = 'null'::jsonb THEN 'restore' ELSE 'archive' END
               WHEN 'deleted_at' = ANY (d.changed) THEN CASE WHEN d.newf->'deleted_at' = 'null'::jsonb THEN 'restore' ELSE 'archive' END
               ELSE 'update'
             END,
             d.changed,
             (SELECT jsonb_object_agg(k, d.oldf->k) FROM unnest(d.changed) k),
             (SELECT jsonb_object_agg(k, d.newf->k) FROM unnest(d.changed) k)
      FROM d
    $q$, key_col)
    USING actor, coalesce(actor_name, ''), coalesce(actor_email, ''), entity, dropped, org_col, key_col;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Puts the log's triggers on a table (again: the same ones). ops: the writes recorded.
CREATE OR REPLACE FUNCTION flotte_audited_table(t regclass, entity text, key_col text DEFAULT 'uuid', org_col text DEFAULT 'organization_uuid', ops text[] DEFAULT ARRAY['INSERT', 'UPDATE', 'DELETE']) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  name text := (SELECT relname FROM pg_class WHERE oid = t);
  args text := format('%L, %L, %L', entity, key_col, org_col);
BEGIN
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', name || '_audit_insert', t);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', name || '_audit_update', t);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', name || '_audit_delete', t);
  IF 'INSERT' = ANY (ops) THEN
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %s REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_log_record(%s)', name || '_audit_insert', t, args);
  END IF;
  IF 'UPDATE' = ANY (ops) THEN
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %s REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_log_record(%s)', name || '_audit_update', t, args);
  END IF;
  IF 'DELETE' = ANY (ops) THEN
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %s REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_log_record(%s)', name || '_audit_delete', t, args);
  END IF;
END $$;
--> statement-breakpoint
SELECT flotte_audited_table('vehicules', 'vehicule');
--> statement-breakpoint
SELECT flotte_audited_table('drivers', 'driver');
--> statement-breakpoint
SELECT flotte_audited_table('sinisters', 'sinister');
--> statement-breakpoint
SELECT flotte_audited_table('documents', 'document');
--> statement-breakpoint
SELECT flotte_audited_table('insurance_contracts', 'insuranceContract');
--> statement-breakpoint
SELECT flotte_audited_table('insurance_intermediaries', 'insuranceIntermediary');
--> statement-breakpoint
SELECT flotte_audited_table('indicators', 'indicator');
--> statement-breakpoint
SELECT flotte_audited_table('dashboard_configs', 'dashboardConfig', 'organization_uuid');
--> statement-breakpoint
SELECT flotte_audited_table('organization_users', 'member');
--> statement-breakpoint
SELECT flotte_audited_table('organization_invitations', 'invitation');
--> statement-breakpoint
-- The organization itself: its settings only (its creation and deletion are the broker's, and its
-- log goes with it).
SELECT flotte_audited_table('organizations', 'organization', 'uuid', 'uuid', ARRAY['UPDATE']);
