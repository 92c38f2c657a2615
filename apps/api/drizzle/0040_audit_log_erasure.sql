-- Hand-written (decision 049's addition): a person's erasure reaches the activity log. The log's
-- entries never change for the application (decision 041: the roles may only SELECT and INSERT
-- it); this one function, run with its owner's rights, blanks what entries tell of erased
-- records — their label, the fields changed and their values before and after — and keeps who
-- did what and when.
-- Only in the caller's organization (app_current_org(), as every tenant write), only the kinds
-- and records it is given.
CREATE POLICY erasure_read ON audit_log FOR SELECT TO CURRENT_USER USING (organization_uuid = app_current_org());
--> statement-breakpoint
CREATE POLICY erasure ON audit_log FOR UPDATE TO CURRENT_USER USING (organization_uuid = app_current_org()) WITH CHECK (organization_uuid = app_current_org());
--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_log_erase(erased_entity text, erased uuid[], erased_label text) RETURNS integer
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
  WITH blanked AS (
    UPDATE audit_log SET label = erased_label, changed = NULL, before = NULL, after = NULL
    WHERE organization_uuid = app_current_org() AND entity = erased_entity AND record_uuid = ANY (erased)
    RETURNING 1
  )
  SELECT count(*)::integer FROM blanked
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION audit_log_erase(text, uuid[], text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION audit_log_erase(text, uuid[], text) TO flotte_app;
