-- Hand-written. Forced row-level security on the directory tables that hold a user's secrets, the
-- platform's machinery, a broker's alerts and the shared catalogues (decision 002, amended): none
-- of them holds an organization's data, but a table without row-level security is one policy
-- away from a leak, so each gets it now, with a policy saying who may read it.
--
-- flotte_system_table: system scope only. Forced row-level security, the system role's policy,
-- and the tenant role loses every privilege (a tenant-scoped query can never reach the table,
-- whatever its policy). Sign-in, refresh, recovery, two-factor, e-mail links, the login limits
-- and the broker's alerts are read and written in system scope only (withSystem/readSystem).
CREATE OR REPLACE FUNCTION flotte_system_table(t regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', t);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', t);
  EXECUTE format('DROP POLICY IF EXISTS system_access ON %s', t);
  EXECUTE format('CREATE POLICY system_access ON %s TO flotte_system USING (true) WITH CHECK (true)', t);
  EXECUTE format('REVOKE ALL ON %s FROM flotte_app', t);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %s TO flotte_system', t);
END $$;
--> statement-breakpoint
-- flotte_catalogue_table: a catalogue the same for every organization (plans, guarantees): a
-- system table the tenant role may read (every row) and never write.
CREATE OR REPLACE FUNCTION flotte_catalogue_table(t regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM flotte_system_table(t);
  EXECUTE format('DROP POLICY IF EXISTS catalogue_read ON %s', t);
  EXECUTE format('CREATE POLICY catalogue_read ON %s FOR SELECT TO flotte_app USING (true)', t);
  EXECUTE format('GRANT SELECT ON %s TO flotte_app', t);
END $$;
--> statement-breakpoint
SELECT flotte_system_table('refresh_tokens');--> statement-breakpoint
SELECT flotte_system_table('password_reset_tokens');--> statement-breakpoint
SELECT flotte_system_table('email_change_tokens');--> statement-breakpoint
SELECT flotte_system_table('email_confirmation_tokens');--> statement-breakpoint
SELECT flotte_system_table('user_totp');--> statement-breakpoint
SELECT flotte_system_table('totp_recovery_codes');--> statement-breakpoint
SELECT flotte_system_table('login_challenges');--> statement-breakpoint
SELECT flotte_system_table('trusted_devices');--> statement-breakpoint
SELECT flotte_system_table('failure_counters');--> statement-breakpoint
-- A broker's alerts (decision 037): the environment's data, written and read by the superadmin's
-- checked calls in system scope; each organization reads its own copies in organization_alerts.
SELECT flotte_system_table('prevention_alerts');--> statement-breakpoint
SELECT flotte_catalogue_table('billing_plans');--> statement-breakpoint
SELECT flotte_catalogue_table('guarantees');
