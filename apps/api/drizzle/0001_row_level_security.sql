-- Tenant isolation by PostgreSQL row-level security (docs/decisions/002-row-level-security.md).
-- Roles are cluster-wide: create them once, tolerate a concurrent migration of another database.
DO $$ BEGIN
  CREATE ROLE flotte_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  CREATE ROLE flotte_system NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
--> statement-breakpoint
-- The connecting user must be a member to SET ROLE (a superuser already is).
DO $$ BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT flotte_app, flotte_system TO %I', current_user);
  END IF;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO flotte_app, flotte_system;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO flotte_app, flotte_system;
--> statement-breakpoint
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO flotte_app, flotte_system;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO flotte_app, flotte_system;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO flotte_app, flotte_system;
--> statement-breakpoint
-- After a transaction the setting reads '' rather than NULL: nullif keeps "no organization" = no row.
CREATE OR REPLACE FUNCTION app_current_org() RETURNS uuid
  LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('app.org_id', true), '')::uuid $$;
--> statement-breakpoint
ALTER TABLE organizations ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE organizations FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON organizations TO flotte_app
  USING (uuid = app_current_org()) WITH CHECK (uuid = app_current_org());
--> statement-breakpoint
CREATE POLICY system_access ON organizations TO flotte_system USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE organization_users ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE organization_users FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON organization_users TO flotte_app
  USING (organization_uuid = app_current_org()) WITH CHECK (organization_uuid = app_current_org());
--> statement-breakpoint
CREATE POLICY system_access ON organization_users TO flotte_system USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE reports ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE reports FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON reports TO flotte_app
  USING (organization_uuid = app_current_org()) WITH CHECK (organization_uuid = app_current_org());
--> statement-breakpoint
CREATE POLICY system_access ON reports TO flotte_system USING (true) WITH CHECK (true);
