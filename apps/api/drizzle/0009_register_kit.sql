-- The register kit (docs/adding-a-register.md): one SQL function gives a tenant table its
-- row-level security, and one gives a register its counts and version triggers. New tables call
-- them with their name; the existing tables get their policies and triggers again through them.
-- Counts per organization kept by statement-level triggers (transition tables), and a version
-- that only grows (migration 0008). TG_ARGV[0] is the register's name (REGISTERS in
-- src/db/schema/registers.ts, enforced by register_counts_register_check); TG_ARGV[1], when
-- given, is the condition a row must meet to be counted (a vehicle without a plate is a draft).
CREATE OR REPLACE FUNCTION register_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  reg text := TG_ARGV[0];
  counted text := coalesce(TG_ARGV[1], 'true');
  side record;
BEGIN
  -- Rows gone or changed count out (-1), rows new or changed count in (+1).
  FOR side IN SELECT * FROM (VALUES ('old_rows', -1), ('new_rows', 1)) AS s(rows, sign)
    WHERE (s.rows = 'old_rows' AND TG_OP IN ('UPDATE', 'DELETE')) OR (s.rows = 'new_rows' AND TG_OP IN ('UPDATE', 'INSERT'))
  LOOP
    EXECUTE format($q$
      INSERT INTO register_counts AS c (organization_uuid, register, active, archived, version)
      SELECT organization_uuid, %L,
             %s * count(*) FILTER (WHERE archived_at IS NULL AND %s),
             %s * count(*) FILTER (WHERE archived_at IS NOT NULL AND %s),
             (extract(epoch FROM clock_timestamp()) * 1000000)::bigint
      FROM %I GROUP BY organization_uuid
      ON CONFLICT (organization_uuid, register)
      DO UPDATE SET active = c.active + excluded.active, archived = c.archived + excluded.archived,
                    version = greatest(c.version + 1, excluded.version)
    $q$, reg, side.sign, counted, side.sign, counted, side.rows);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A table holding organizations' rows: row-level security with FORCE (its owner too), the
-- organization's rows for flotte_app, every row for flotte_system, and both roles' grants
-- (docs/decisions/002-row-level-security.md). Called again, it puts the same policies back.
CREATE OR REPLACE FUNCTION flotte_tenant_table(t regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', t);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', t);
  EXECUTE format('DROP POLICY IF EXISTS tenant_isolation ON %s', t);
  EXECUTE format('CREATE POLICY tenant_isolation ON %s TO flotte_app USING (organization_uuid = app_current_org()) WITH CHECK (organization_uuid = app_current_org())', t);
  EXECUTE format('DROP POLICY IF EXISTS system_access ON %s', t);
  EXECUTE format('CREATE POLICY system_access ON %s TO flotte_system USING (true) WITH CHECK (true)', t);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %s TO flotte_app, flotte_system', t);
END $$;
--> statement-breakpoint
-- A register: a tenant table with archived_at whose every write keeps its organization's counts
-- and moves its version in register_counts, the version the list kit checks its pages against.
CREATE OR REPLACE FUNCTION flotte_register_table(t regclass, register text, counted text DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  name text := (SELECT relname FROM pg_class WHERE oid = t);
  args text := CASE WHEN counted IS NULL THEN format('%L', register) ELSE format('%L, %L', register, counted) END;
BEGIN
  PERFORM flotte_tenant_table(t);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', name || '_counts_insert', t);
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %s REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION register_counts_apply(%s)', name || '_counts_insert', t, args);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', name || '_counts_update', t);
  EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %s REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION register_counts_apply(%s)', name || '_counts_update', t, args);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', name || '_counts_delete', t);
  EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %s REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION register_counts_apply(%s)', name || '_counts_delete', t, args);
END $$;
--> statement-breakpoint
SELECT flotte_tenant_table('organization_users');
--> statement-breakpoint
SELECT flotte_tenant_table('reports');
--> statement-breakpoint
SELECT flotte_tenant_table('register_counts');
--> statement-breakpoint
SELECT flotte_register_table('drivers', 'drivers');
--> statement-breakpoint
SELECT flotte_register_table('vehicules', 'vehicules', 'immatriculation IS NOT NULL');
--> statement-breakpoint
SELECT flotte_register_table('sinisters', 'sinisters');
--> statement-breakpoint
ALTER TABLE "register_counts" ADD CONSTRAINT "register_counts_register_check" CHECK ("register_counts"."register" in ('drivers', 'vehicules', 'sinisters'));
--> statement-breakpoint
-- The claims search also finds the driver's name: the claim keeps it (driver_name), the search
-- text includes it. The old search text goes first, so the backfill rewrites no index for it.
ALTER TABLE "sinisters" DROP COLUMN "search_text";
--> statement-breakpoint
ALTER TABLE "sinisters" ADD COLUMN "driver_name" text;
--> statement-breakpoint
-- As flotte_system: with FORCE row-level security a migrating owner that is not a superuser would see no row.
SET ROLE flotte_system;
--> statement-breakpoint
UPDATE "sinisters" s SET "driver_name" = d."first_name" || ' ' || d."last_name" FROM "drivers" d WHERE d."uuid" = s."driver_uuid";
--> statement-breakpoint
RESET ROLE;
--> statement-breakpoint
ALTER TABLE "sinisters" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(f_unaccent(coalesce("sinisters"."sinister_intermediate_ref", '') || ' ' || coalesce("sinisters"."immatriculation", '') || ' ' || coalesce("sinisters"."city", '') || ' ' || coalesce("sinisters"."driver_name", '')))) STORED;
--> statement-breakpoint
CREATE INDEX "sinisters_search_trgm_idx" ON "sinisters" USING gin ("search_text" gin_trgm_ops);
--> statement-breakpoint
-- A claim takes its driver's name when it is written or linked to another driver, and loses it
-- with the link (a deleted driver's claims are set to no driver: an UPDATE of driver_uuid).
CREATE OR REPLACE FUNCTION sinisters_driver_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.driver_uuid IS NULL THEN
    NEW.driver_name := NULL;
  ELSIF TG_OP = 'INSERT' OR NEW.driver_uuid IS DISTINCT FROM OLD.driver_uuid THEN
    NEW.driver_name := (SELECT first_name || ' ' || last_name FROM drivers WHERE uuid = NEW.driver_uuid);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER sinisters_driver_name BEFORE INSERT OR UPDATE OF driver_uuid ON sinisters
  FOR EACH ROW EXECUTE FUNCTION sinisters_driver_name();
--> statement-breakpoint
-- A renamed driver is found under the new name in the claims search.
CREATE OR REPLACE FUNCTION drivers_rename_claims() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sinisters s SET driver_name = n.first_name || ' ' || n.last_name
  FROM new_rows n JOIN old_rows o ON o.uuid = n.uuid
  WHERE s.driver_uuid = n.uuid AND (n.first_name, n.last_name) IS DISTINCT FROM (o.first_name, o.last_name);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER drivers_rename_claims AFTER UPDATE ON drivers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION drivers_rename_claims();
