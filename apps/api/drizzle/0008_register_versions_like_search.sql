-- Every write to a register moves its organization's version in register_counts, in the same
-- transaction as the write: a list computed at version v is exactly the register at v, so a
-- server may answer the same list again while the version has not moved (decision 007).
-- The version is the write's time in microseconds (or the previous version + 1 if larger): it
-- only grows, even across a restore or a failover that lost the last writes, so a version seen
-- before can never come back with other rows. The counts are kept as before (statement-level,
-- transition tables).
CREATE OR REPLACE FUNCTION register_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  reg text := TG_ARGV[0];
  counted text := CASE WHEN TG_ARGV[0] = 'vehicules' THEN 'immatriculation IS NOT NULL' ELSE 'true' END;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    EXECUTE format($q$
      INSERT INTO register_counts AS c (organization_uuid, register, active, archived, version)
      SELECT organization_uuid, %L,
             -count(*) FILTER (WHERE archived_at IS NULL AND %s),
             -count(*) FILTER (WHERE archived_at IS NOT NULL AND %s),
             (extract(epoch FROM clock_timestamp()) * 1000000)::bigint
      FROM old_rows GROUP BY organization_uuid
      ON CONFLICT (organization_uuid, register)
      DO UPDATE SET active = c.active + excluded.active, archived = c.archived + excluded.archived,
                    version = greatest(c.version + 1, excluded.version)
    $q$, reg, counted, counted);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    EXECUTE format($q$
      INSERT INTO register_counts AS c (organization_uuid, register, active, archived, version)
      SELECT organization_uuid, %L,
             count(*) FILTER (WHERE archived_at IS NULL AND %s),
             count(*) FILTER (WHERE archived_at IS NOT NULL AND %s),
             (extract(epoch FROM clock_timestamp()) * 1000000)::bigint
      FROM new_rows GROUP BY organization_uuid
      ON CONFLICT (organization_uuid, register)
      DO UPDATE SET active = c.active + excluded.active, archived = c.archived + excluded.archived,
                    version = greatest(c.version + 1, excluded.version)
    $q$, reg, counted, counted);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Searches compare the folded search_text with LIKE and a folded pattern (both sides lower case
-- and unaccented), which spares ILIKE's per-row case folding. Like texticlike in migration 0006,
-- textlike must be LEAKPROOF for the trigram indexes to serve it under row-level security; its
-- only error concerns a malformed pattern, never the row it reads.
DO $$ BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION pg_catalog.textlike(text, text) LEAKPROOF;
  ELSE
    RAISE NOTICE 'textlike not marked LEAKPROOF (needs a superuser): searches will not use the trigram indexes';
  END IF;
END $$;
