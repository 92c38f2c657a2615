CREATE TABLE "claim_daily_totals" (
	"organization_uuid" uuid NOT NULL,
	"breakdown" text NOT NULL,
	"day" date NOT NULL,
	"is_declared" boolean NOT NULL,
	"guarantee_uuid" uuid,
	"responsibility" text,
	"vehicule_type" text,
	"claims" integer NOT NULL,
	"cost_cents" bigint NOT NULL,
	CONSTRAINT "claim_daily_totals_key" UNIQUE NULLS NOT DISTINCT("organization_uuid","breakdown","day","is_declared","guarantee_uuid","responsibility","vehicule_type"),
	CONSTRAINT "claim_daily_totals_breakdown_check" CHECK ("claim_daily_totals"."breakdown" in ('total', 'guarantee', 'responsibility', 'category'))
);
--> statement-breakpoint
CREATE TABLE "fleet_daily_movements" (
	"organization_uuid" uuid NOT NULL,
	"day" date NOT NULL,
	"entered" integer NOT NULL,
	"gone" integer NOT NULL,
	CONSTRAINT "fleet_daily_movements_organization_uuid_day_pk" PRIMARY KEY("organization_uuid","day")
);
--> statement-breakpoint
ALTER TABLE "claim_daily_totals" ADD CONSTRAINT "claim_daily_totals_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fleet_daily_movements" ADD CONSTRAINT "fleet_daily_movements_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claim_daily_totals_empty_idx" ON "claim_daily_totals" USING btree ("organization_uuid") WHERE "claim_daily_totals"."claims" = 0;--> statement-breakpoint
CREATE INDEX "fleet_daily_movements_empty_idx" ON "fleet_daily_movements" USING btree ("organization_uuid") WHERE "fleet_daily_movements"."entered" = 0 and "fleet_daily_movements"."gone" = 0;--> statement-breakpoint
-- The dashboard's daily rollups (decision 029, after decision 022): the
-- figures read a few rows per day instead of every claim and vehicle. Kept by statement-level
-- triggers with transition tables, as register_counts (migration 0009), in the transaction of the
-- write, on both databases. Tenant tables like every organization's table.
SELECT flotte_tenant_table('claim_daily_totals');
--> statement-breakpoint
SELECT flotte_tenant_table('fleet_daily_movements');
--> statement-breakpoint
-- register_counts_apply of migration 0009, unchanged but for one condition: rows of an
-- organization being deleted are skipped, as the rollups' triggers do. Deleting an organization
-- cascades to its registers and to register_counts in the order of the foreign keys' triggers;
-- when register_counts went first, a register's trigger wrote its row again and the deletion
-- failed on the foreign key.
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
      FROM %I r WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.uuid = r.organization_uuid) GROUP BY organization_uuid
      ON CONFLICT (organization_uuid, register)
      DO UPDATE SET active = c.active + excluded.active, archived = c.archived + excluded.archived,
                    version = greatest(c.version + 1, excluded.version)
    $q$, reg, side.sign, counted, side.sign, counted, side.rows);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The responsibility buckets of the dashboard (decision 022): 100 at fault, 25–75 shared, 0 not at fault, null unknown.
CREATE OR REPLACE FUNCTION claim_responsibility_bucket(rate smallint) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN rate IS NULL THEN 'unknown' WHEN rate = 0 THEN 'notAtFault' WHEN rate = 100 THEN 'atFault' ELSE 'shared' END
$$;
--> statement-breakpoint
-- The claims of a write as they count in the rollup: rows gone or changed count out (-1), rows
-- new or changed count in (+1), each under its vehicle's category as it is now (a vehicle of the
-- claim's organization, as the join under row-level security read it); a change that moves
-- nothing the rollup groups by cancels out and writes nothing. Archived claims never count. One
-- upsert per statement in key order, then the keys fallen to zero go. An organization being
-- deleted is skipped: its rows go with it (cascade), whichever table the deletion reaches first.
-- Writers of one organization's claims queue on its register_counts row, locked by
-- sinisters_counts_* before this trigger (triggers of one event fire in name order): the
-- vehicles' triggers below take the same row before they move claims, so a claim written while
-- its vehicle changes category is counted under the category that commits last.
CREATE OR REPLACE FUNCTION claim_daily_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cols text := 'organization_uuid, vehicule_uuid, sinister_date, is_declared, guarantee_uuid, responsibility_rate, total_cost_cents, archived_at';
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT 1 AS sign, %s FROM new_rows', cols)
    WHEN 'DELETE' THEN format('SELECT -1 AS sign, %s FROM old_rows', cols)
    ELSE format('SELECT -1 AS sign, %s FROM old_rows UNION ALL SELECT 1, %s FROM new_rows', cols, cols)
  END;
  moved bigint;
BEGIN
  EXECUTE format($q$
    INSERT INTO claim_daily_totals AS t (organization_uuid, breakdown, day, is_declared, guarantee_uuid, responsibility, vehicule_type, claims, cost_cents)
    SELECT c.organization_uuid,
           CASE grouping(c.guarantee_uuid, c.responsibility, c.vehicule_type) WHEN 7 THEN 'total' WHEN 3 THEN 'guarantee' WHEN 5 THEN 'responsibility' ELSE 'category' END,
           c.sinister_date, c.is_declared, c.guarantee_uuid, c.responsibility, c.vehicule_type,
           sum(c.sign)::integer, sum(c.sign * c.total_cost_cents)::bigint
    FROM (
      SELECT r.sign, r.organization_uuid, r.sinister_date, r.is_declared, r.guarantee_uuid,
             claim_responsibility_bucket(r.responsibility_rate) AS responsibility, v.type AS vehicule_type, r.total_cost_cents
      FROM (%s) r LEFT JOIN vehicules v ON v.uuid = r.vehicule_uuid AND v.organization_uuid = r.organization_uuid
      WHERE r.archived_at IS NULL AND EXISTS (SELECT 1 FROM organizations o WHERE o.uuid = r.organization_uuid)
    ) c
    GROUP BY c.organization_uuid, c.sinister_date, c.is_declared, GROUPING SETS ((), (c.guarantee_uuid), (c.responsibility), (c.vehicule_type))
    HAVING sum(c.sign) <> 0 OR sum(c.sign * c.total_cost_cents) <> 0
    ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (organization_uuid, breakdown, day, is_declared, guarantee_uuid, responsibility, vehicule_type)
    DO UPDATE SET claims = t.claims + excluded.claims, cost_cents = t.cost_cents + excluded.cost_cents
  $q$, changes);
  GET DIAGNOSTICS moved = ROW_COUNT;
  IF moved > 0 THEN
    DELETE FROM claim_daily_totals WHERE claims = 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Holds the claims of these organizations still while vehicles move them: their register_counts
-- row for the claims, made if it is missing, locked until the end of the transaction.
CREATE OR REPLACE FUNCTION claim_daily_totals_hold(organizations uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO register_counts (organization_uuid, register)
  SELECT o, 'sinisters' FROM unnest(organizations) o ORDER BY 1
  ON CONFLICT (organization_uuid, register) DO NOTHING;
  PERFORM 1 FROM register_counts WHERE organization_uuid = ANY (organizations) AND register = 'sinisters' ORDER BY organization_uuid FOR UPDATE;
END $$;
--> statement-breakpoint
-- A vehicle changing category (one edit, the bulk change of every vehicle a filter matches, an
-- import): its active claims move from the old category to the new one. The claims are read, not
-- written (sinisters_vehicule_idx). Fires after vehicules_counts_update (name order): the
-- vehicles' register_counts row, then the claims' one, as the deletion below.
CREATE OR REPLACE FUNCTION claim_daily_totals_recategorize() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved bigint;
  changed uuid[];
BEGIN
  SELECT array_agg(DISTINCT n.organization_uuid) INTO changed
  FROM new_rows n JOIN old_rows p ON p.uuid = n.uuid
  WHERE n.type IS DISTINCT FROM p.type AND EXISTS (SELECT 1 FROM organizations o WHERE o.uuid = n.organization_uuid);
  IF changed IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM claim_daily_totals_hold(changed);
  INSERT INTO claim_daily_totals AS t (organization_uuid, breakdown, day, is_declared, guarantee_uuid, responsibility, vehicule_type, claims, cost_cents)
  SELECT s.organization_uuid, 'category', s.sinister_date, s.is_declared, NULL, NULL, m.type, sum(m.sign)::integer, sum(m.sign * s.total_cost_cents)::bigint
  FROM (
    SELECT n.uuid, n.organization_uuid, x.type, x.sign
    FROM new_rows n JOIN old_rows p ON p.uuid = n.uuid
    CROSS JOIN LATERAL (VALUES (p.type, -1), (n.type, 1)) x(type, sign)
    WHERE n.type IS DISTINCT FROM p.type AND n.organization_uuid = ANY (changed)
  ) m
  JOIN sinisters s ON s.vehicule_uuid = m.uuid AND s.organization_uuid = m.organization_uuid AND s.archived_at IS NULL
  GROUP BY s.organization_uuid, s.sinister_date, s.is_declared, m.type
  HAVING sum(m.sign) <> 0 OR sum(m.sign * s.total_cost_cents) <> 0
  ORDER BY 1, 3, 4, 7
  ON CONFLICT (organization_uuid, breakdown, day, is_declared, guarantee_uuid, responsibility, vehicule_type)
  DO UPDATE SET claims = t.claims + excluded.claims, cost_cents = t.cost_cents + excluded.cost_cents;
  GET DIAGNOSTICS moved = ROW_COUNT;
  IF moved > 0 THEN
    DELETE FROM claim_daily_totals WHERE claims = 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A vehicle deleted: its claims lose their vehicle (the foreign key sets it to null, after the
-- row is gone, when the vehicle's category can no longer be read), so they move to "no category"
-- first, here, while the vehicle is still there. The vehicles' register_counts row is locked
-- before the claims', in the order the update above takes them.
CREATE OR REPLACE FUNCTION claim_daily_totals_vehicule_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved bigint;
BEGIN
  IF OLD.type IS NULL OR NOT EXISTS (SELECT 1 FROM organizations o WHERE o.uuid = OLD.organization_uuid) THEN
    RETURN OLD;
  END IF;
  PERFORM 1 FROM register_counts WHERE organization_uuid = OLD.organization_uuid AND register = 'vehicules' FOR UPDATE;
  PERFORM claim_daily_totals_hold(ARRAY[OLD.organization_uuid]);
  INSERT INTO claim_daily_totals AS t (organization_uuid, breakdown, day, is_declared, guarantee_uuid, responsibility, vehicule_type, claims, cost_cents)
  SELECT s.organization_uuid, 'category', s.sinister_date, s.is_declared, NULL, NULL, x.type, sum(x.sign)::integer, sum(x.sign * s.total_cost_cents)::bigint
  FROM sinisters s CROSS JOIN (VALUES (OLD.type, -1), (NULL::text, 1)) x(type, sign)
  WHERE s.vehicule_uuid = OLD.uuid AND s.organization_uuid = OLD.organization_uuid AND s.archived_at IS NULL
  GROUP BY s.organization_uuid, s.sinister_date, s.is_declared, x.type
  ORDER BY 1, 3, 4, 7
  ON CONFLICT (organization_uuid, breakdown, day, is_declared, guarantee_uuid, responsibility, vehicule_type)
  DO UPDATE SET claims = t.claims + excluded.claims, cost_cents = t.cost_cents + excluded.cost_cents;
  GET DIAGNOSTICS moved = ROW_COUNT;
  IF moved > 0 THEN
    DELETE FROM claim_daily_totals WHERE claims = 0;
  END IF;
  RETURN OLD;
END $$;
--> statement-breakpoint
-- The fleet's movements of a write (decision 022's rules): a vehicle with a plate enters on its
-- entry day (no entry date: 0001-01-01) and is gone from the day after its exit, or after its
-- archiving day when it has no exit date (the archiving instant's day in the session's time
-- zone, as the query before it read it). Drafts never count.
CREATE OR REPLACE FUNCTION fleet_daily_movements_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cols text := 'organization_uuid, immatriculation, entry_date, coalesce(exit_date, archived_at::date) AS last_day';
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT 1 AS sign, %s FROM new_rows', cols)
    WHEN 'DELETE' THEN format('SELECT -1 AS sign, %s FROM old_rows', cols)
    ELSE format('SELECT -1 AS sign, %s FROM old_rows UNION ALL SELECT 1, %s FROM new_rows', cols, cols)
  END;
  moved bigint;
BEGIN
  EXECUTE format($q$
    WITH changes AS (
      SELECT * FROM (%s) r
      WHERE r.immatriculation IS NOT NULL AND EXISTS (SELECT 1 FROM organizations o WHERE o.uuid = r.organization_uuid)
    )
    INSERT INTO fleet_daily_movements AS t (organization_uuid, day, entered, gone)
    SELECT m.organization_uuid, m.day, sum(m.entered)::integer, sum(m.gone)::integer
    FROM (
      SELECT organization_uuid, coalesce(entry_date, date '0001-01-01') AS day, sign AS entered, 0 AS gone FROM changes
      UNION ALL
      SELECT organization_uuid, last_day + 1, 0, sign FROM changes WHERE last_day IS NOT NULL
    ) m
    GROUP BY m.organization_uuid, m.day
    HAVING sum(m.entered) <> 0 OR sum(m.gone) <> 0
    ORDER BY 1, 2
    ON CONFLICT (organization_uuid, day) DO UPDATE SET entered = t.entered + excluded.entered, gone = t.gone + excluded.gone
  $q$, changes);
  GET DIAGNOSTICS moved = ROW_COUNT;
  IF moved > 0 THEN
    DELETE FROM fleet_daily_movements WHERE entered = 0 AND gone = 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Both rollups made again from the registers, for the rows the caller sees (every organization
-- as flotte_system, its own under a tenant scope): how the migration fills them, and the repair
-- if they ever drift (the archiving day of a vehicle without exit date is taken in the session's
-- time zone: a database whose TimeZone setting changes would rebuild them).
CREATE OR REPLACE FUNCTION dashboard_rollups_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM claim_daily_totals;
  INSERT INTO claim_daily_totals (organization_uuid, breakdown, day, is_declared, guarantee_uuid, responsibility, vehicule_type, claims, cost_cents)
  SELECT c.organization_uuid,
         CASE grouping(c.guarantee_uuid, c.responsibility, c.vehicule_type) WHEN 7 THEN 'total' WHEN 3 THEN 'guarantee' WHEN 5 THEN 'responsibility' ELSE 'category' END,
         c.sinister_date, c.is_declared, c.guarantee_uuid, c.responsibility, c.vehicule_type, count(*)::integer, sum(c.total_cost_cents)::bigint
  FROM (
    SELECT s.organization_uuid, s.sinister_date, s.is_declared, s.guarantee_uuid, claim_responsibility_bucket(s.responsibility_rate) AS responsibility,
           v.type AS vehicule_type, s.total_cost_cents
    FROM sinisters s LEFT JOIN vehicules v ON v.uuid = s.vehicule_uuid AND v.organization_uuid = s.organization_uuid
    WHERE s.archived_at IS NULL
  ) c
  GROUP BY c.organization_uuid, c.sinister_date, c.is_declared, GROUPING SETS ((), (c.guarantee_uuid), (c.responsibility), (c.vehicule_type));
  DELETE FROM fleet_daily_movements;
  INSERT INTO fleet_daily_movements (organization_uuid, day, entered, gone)
  SELECT m.organization_uuid, m.day, sum(m.entered)::integer, sum(m.gone)::integer
  FROM (
    SELECT v.organization_uuid, coalesce(v.entry_date, date '0001-01-01') AS day, 1 AS entered, 0 AS gone
    FROM vehicules v WHERE v.immatriculation IS NOT NULL
    UNION ALL
    SELECT v.organization_uuid, coalesce(v.exit_date, v.archived_at::date) + 1, 0, 1
    FROM vehicules v WHERE v.immatriculation IS NOT NULL AND coalesce(v.exit_date, v.archived_at::date) IS NOT NULL
  ) m
  GROUP BY m.organization_uuid, m.day;
$$;
--> statement-breakpoint
-- The existing rows, as flotte_system (with FORCE row-level security a migrating owner that is
-- not a superuser would see no row); the triggers, created right after, keep them from then on.
SET ROLE flotte_system;
--> statement-breakpoint
SELECT dashboard_rollups_rebuild();
--> statement-breakpoint
RESET ROLE;
--> statement-breakpoint
-- Named after sinisters_counts_* and vehicules_counts_*: triggers of one event fire in name order.
CREATE TRIGGER sinisters_daily_totals_insert AFTER INSERT ON sinisters REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION claim_daily_totals_apply();
--> statement-breakpoint
CREATE TRIGGER sinisters_daily_totals_update AFTER UPDATE ON sinisters REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION claim_daily_totals_apply();
--> statement-breakpoint
CREATE TRIGGER sinisters_daily_totals_delete AFTER DELETE ON sinisters REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION claim_daily_totals_apply();
--> statement-breakpoint
CREATE TRIGGER vehicules_daily_totals_update AFTER UPDATE ON vehicules REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION claim_daily_totals_recategorize();
--> statement-breakpoint
CREATE TRIGGER vehicules_daily_totals_delete BEFORE DELETE ON vehicules
  FOR EACH ROW EXECUTE FUNCTION claim_daily_totals_vehicule_deleted();
--> statement-breakpoint
CREATE TRIGGER vehicules_fleet_movements_insert AFTER INSERT ON vehicules REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION fleet_daily_movements_apply();
--> statement-breakpoint
CREATE TRIGGER vehicules_fleet_movements_update AFTER UPDATE ON vehicules REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION fleet_daily_movements_apply();
--> statement-breakpoint
CREATE TRIGGER vehicules_fleet_movements_delete AFTER DELETE ON vehicules REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION fleet_daily_movements_apply();
--> statement-breakpoint
-- Nothing reads the fleet from the vehicles any more (the rollup replaced that query).
DROP INDEX vehicules_fleet_idx;
