-- Row-level security for the fleet registers (docs/decisions/002-row-level-security.md).
ALTER TABLE drivers ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE drivers FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON drivers TO flotte_app
  USING (organization_uuid = app_current_org()) WITH CHECK (organization_uuid = app_current_org());
--> statement-breakpoint
CREATE POLICY system_access ON drivers TO flotte_system USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE vehicules ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE vehicules FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON vehicules TO flotte_app
  USING (organization_uuid = app_current_org()) WITH CHECK (organization_uuid = app_current_org());
--> statement-breakpoint
CREATE POLICY system_access ON vehicules TO flotte_system USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE sinisters ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE sinisters FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON sinisters TO flotte_app
  USING (organization_uuid = app_current_org()) WITH CHECK (organization_uuid = app_current_org());
--> statement-breakpoint
CREATE POLICY system_access ON sinisters TO flotte_system USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE register_counts ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE register_counts FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON register_counts TO flotte_app
  USING (organization_uuid = app_current_org()) WITH CHECK (organization_uuid = app_current_org());
--> statement-breakpoint
CREATE POLICY system_access ON register_counts TO flotte_system USING (true) WITH CHECK (true);
--> statement-breakpoint
-- Guarantees are reference data: everyone reads them, only migrations (and ROOT, later) write.
REVOKE INSERT, UPDATE, DELETE ON guarantees FROM flotte_app;
--> statement-breakpoint
INSERT INTO guarantees (label, position) VALUES
  ('Responsabilité civile', 1),
  ('Défense pénale et recours', 2),
  ('Dommages tous accidents', 3),
  ('Dommages collision', 4),
  ('Incendie', 5),
  ('Vol', 6),
  ('Bris de glace', 7),
  ('Catastrophes naturelles', 8),
  ('Catastrophes technologiques', 9),
  ('Tempête et événements climatiques', 10),
  ('Attentats', 11),
  ('Assistance', 12),
  ('Véhicule de remplacement', 13),
  ('Garantie du conducteur', 14),
  ('Perte financière', 15),
  ('Marchandises transportées', 16),
  ('Objets personnels', 17)
ON CONFLICT (label) DO NOTHING;
--> statement-breakpoint
-- Counts per organization kept on write, by statement (bulk inserts pay once per statement).
-- A vehicle without a plate is a draft (create-empty) and is not counted.
CREATE OR REPLACE FUNCTION register_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  reg text := TG_ARGV[0];
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    EXECUTE format($q$
      INSERT INTO register_counts AS c (organization_uuid, register, active, archived)
      SELECT organization_uuid, %L,
             -count(*) FILTER (WHERE archived_at IS NULL AND %s),
             -count(*) FILTER (WHERE archived_at IS NOT NULL AND %s)
      FROM old_rows GROUP BY organization_uuid
      ON CONFLICT (organization_uuid, register)
      DO UPDATE SET active = c.active + excluded.active, archived = c.archived + excluded.archived
    $q$, reg,
      CASE WHEN reg = 'vehicules' THEN 'immatriculation IS NOT NULL' ELSE 'true' END,
      CASE WHEN reg = 'vehicules' THEN 'immatriculation IS NOT NULL' ELSE 'true' END);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    EXECUTE format($q$
      INSERT INTO register_counts AS c (organization_uuid, register, active, archived)
      SELECT organization_uuid, %L,
             count(*) FILTER (WHERE archived_at IS NULL AND %s),
             count(*) FILTER (WHERE archived_at IS NOT NULL AND %s)
      FROM new_rows GROUP BY organization_uuid
      ON CONFLICT (organization_uuid, register)
      DO UPDATE SET active = c.active + excluded.active, archived = c.archived + excluded.archived
    $q$, reg,
      CASE WHEN reg = 'vehicules' THEN 'immatriculation IS NOT NULL' ELSE 'true' END,
      CASE WHEN reg = 'vehicules' THEN 'immatriculation IS NOT NULL' ELSE 'true' END);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER drivers_counts_insert AFTER INSERT ON drivers REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION register_counts_apply('drivers');
--> statement-breakpoint
CREATE TRIGGER drivers_counts_update AFTER UPDATE ON drivers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION register_counts_apply('drivers');
--> statement-breakpoint
CREATE TRIGGER drivers_counts_delete AFTER DELETE ON drivers REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION register_counts_apply('drivers');
--> statement-breakpoint
CREATE TRIGGER vehicules_counts_insert AFTER INSERT ON vehicules REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION register_counts_apply('vehicules');
--> statement-breakpoint
CREATE TRIGGER vehicules_counts_update AFTER UPDATE ON vehicules REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION register_counts_apply('vehicules');
--> statement-breakpoint
CREATE TRIGGER vehicules_counts_delete AFTER DELETE ON vehicules REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION register_counts_apply('vehicules');
--> statement-breakpoint
CREATE TRIGGER sinisters_counts_insert AFTER INSERT ON sinisters REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION register_counts_apply('sinisters');
--> statement-breakpoint
CREATE TRIGGER sinisters_counts_update AFTER UPDATE ON sinisters REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION register_counts_apply('sinisters');
--> statement-breakpoint
CREATE TRIGGER sinisters_counts_delete AFTER DELETE ON sinisters REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION register_counts_apply('sinisters');
