-- Under row-level security PostgreSQL only uses an index for a condition whose functions are
-- LEAKPROOF; ILIKE (texticlike) is not marked so, which turns every search into a scan of the
-- organization's rows. Marking it needs a superuser: done when the migrating user is one,
-- otherwise searches stay correct but slower (docs/decisions/004-search-under-row-level-security.md).
DO $$ BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION pg_catalog.texticlike(text, text) LEAKPROOF;
  ELSE
    RAISE NOTICE 'texticlike not marked LEAKPROOF (needs a superuser): searches will not use the trigram indexes';
  END IF;
END $$;
