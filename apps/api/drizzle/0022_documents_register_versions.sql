-- A driver's, vehicle's or claim's `documents` are part of its register's pages (issue 14): a
-- write to a linked document (attached, renamed, trashed, restored, purged) moves the version of
-- that register, as a write to the register itself does (migrations 0008, 0009), so neither the
-- page cache nor a client's ETag keeps a page with stale files. Statement-level, as the counts.
CREATE OR REPLACE FUNCTION documents_register_bump(organization uuid, entity text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO register_counts AS c (organization_uuid, register, version)
  SELECT organization, CASE entity WHEN 'driver' THEN 'drivers' WHEN 'vehicule' THEN 'vehicules' ELSE 'sinisters' END,
         (extract(epoch FROM clock_timestamp()) * 1000000)::bigint
  WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.uuid = organization)
  ON CONFLICT (organization_uuid, register) DO UPDATE SET version = greatest(c.version + 1, excluded.version)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION documents_register_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM documents_register_bump(organization_uuid, entity_type) FROM (SELECT DISTINCT organization_uuid, entity_type FROM new_rows WHERE entity_type IS NOT NULL) d;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM documents_register_bump(organization_uuid, entity_type) FROM (SELECT DISTINCT organization_uuid, entity_type FROM old_rows WHERE entity_type IS NOT NULL) d;
  ELSE
    PERFORM documents_register_bump(organization_uuid, entity_type) FROM (
      SELECT organization_uuid, entity_type FROM new_rows WHERE entity_type IS NOT NULL
      UNION SELECT organization_uuid, entity_type FROM old_rows WHERE entity_type IS NOT NULL
    ) d;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER documents_register_versions_insert AFTER INSERT ON documents REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION documents_register_versions();
--> statement-breakpoint
CREATE TRIGGER documents_register_versions_update AFTER UPDATE ON documents REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION documents_register_versions();
--> statement-breakpoint
CREATE TRIGGER documents_register_versions_delete AFTER DELETE ON documents REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION documents_register_versions();
