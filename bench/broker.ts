/**
 * The broker's table (issue 16, decision 039): one environment of BROKER_ORGS client organizations
 * of typical sizes (20 to 800 vehicles, 1.5 claims per vehicle over two years, a current and a
 * previous period, a contract for four in five, limits of their own for one in three), kept in the
 * database `flotte_bench_broker` between runs, seeded in SQL in one transaction (the registers'
 * triggers keep their counts and the dashboard's rollups as in production).
 */
import pg from 'pg';
import { openPostgres } from '../apps/api/src/db/client.js';
import { withSystem } from '../apps/api/src/db/scope.js';
import { attachToEnvironment, createEnvironment, createUser } from '../apps/api/src/seed/factories.js';

export const BROKER_DB_NAME = 'flotte_bench_broker';
export const BROKER_EMAIL = 'courtier@bench-flotte.fr';
const ENVIRONMENT_TITLE = 'Cabinet Bench Courtage';

const SEED = [
  // The organizations: k = 1 … n, vehicles 20 + (37 k mod 781).
  `INSERT INTO organizations (title, environment_uuid)
   SELECT (ARRAY['Transports','Ambulances','Taxis','Déménagements','Livraisons','Autocars','Location','Plomberie','Électricité','Paysages'])[1 + k % 10]
          || ' ' || (ARRAY['Martin','Bernard','Dubois','Durand','Leroy','Moreau','Simon','Laurent','Michel','Garcia','Roux','Fournier'])[1 + (k * 7) % 12] || ' ' || k,
          $1::uuid
   FROM generate_series(1, $2::int) k`,
  `CREATE TEMP TABLE bench_orgs AS
   SELECT uuid, row_number() OVER (ORDER BY created_at, uuid)::int AS k FROM organizations WHERE environment_uuid = $1::uuid`,
  `INSERT INTO vehicules (organization_uuid, immatriculation, brand, model, type, entry_date, exit_date, archived_at)
   SELECT o.uuid,
     l[1 + (g / 23) % 23] || l[1 + g % 23] || lpad((1 + g % 999)::text, 3, '0') || l[1 + (g / 529) % 23] || l[1 + o.k % 23],
     (ARRAY['Renault','Peugeot','Citroën','Toyota','Ford','Iveco'])[1 + g % 6], 'Modèle', (ARRAY['VP','VUL','PL'])[1 + g % 3],
     current_date - (30 + (g * 13) % 900),
     CASE WHEN g % 12 = 0 THEN current_date - (g % 200) END,
     CASE WHEN g % 24 = 0 THEN now() END
   FROM bench_orgs o
   CROSS JOIN LATERAL generate_series(1, 20 + (o.k * 37) % 781) g
   CROSS JOIN (SELECT ARRAY['A','B','C','D','E','F','G','H','J','K','L','M','N','P','Q','R','S','T','V','W','X','Y','Z'] AS l) letters`,
  `INSERT INTO sinisters (organization_uuid, sinister_intermediate_ref, sinister_date, city, is_declared, responsibility_rate, reserve_cents)
   SELECT o.uuid, 'R' || o.k || '-' || g, current_date - (g * 7919) % 730, 'Lyon', g % 4 <> 0,
     (ARRAY[0,25,50,75,100,NULL]::smallint[])[1 + g % 6], (g::bigint * 7919) % 800000
   FROM bench_orgs o CROSS JOIN LATERAL generate_series(1, (3 * (20 + (o.k * 37) % 781)) / 2) g`,
  `INSERT INTO indicators (organization_uuid, start_date, end_date, motors_count, cash_received_cents)
   SELECT o.uuid, current_date - (o.k % 300) - p * 365, current_date - (o.k % 300) - p * 365 + 364,
     20 + (o.k * 37) % 781 - p * 5, (20 + (o.k * 37) % 781)::bigint * (90000 + (o.k % 7) * 10000)
   FROM bench_orgs o CROSS JOIN generate_series(0, 1) p`,
  `INSERT INTO dashboard_configs (organization_uuid, loss_ratio_percentage, claim_frequency_percentage)
   SELECT uuid, 60 + k % 20, 15 + k % 10 FROM bench_orgs WHERE k % 3 = 0`,
  `INSERT INTO insurance_contracts (organization_uuid, insurer, policy_number, start_date, renewal_date, annual_premium_cents)
   SELECT uuid, 'Axa France', 'FLT-' || k, current_date - 200, current_date + (k * 11) % 365 + 1, 4000000 FROM bench_orgs WHERE k % 5 <> 0`,
];

/** The broker's database with `count` organizations: kept when complete, made afresh otherwise. Returns its URL. */
export async function prepareBrokerDatabase(baseUrl: string, count: number, password: string): Promise<string> {
  const url = new URL(baseUrl);
  url.pathname = `/${BROKER_DB_NAME}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [BROKER_DB_NAME])).rowCount === 1;
  if (exists && process.env.BENCH_RESEED_BROKER !== 'true') {
    const probe = new pg.Client({ connectionString: url.toString() });
    await probe.connect();
    const found = await probe
      .query<{ n: string }>(`SELECT count(*) AS n FROM organizations o JOIN environments e ON e.uuid = o.environment_uuid WHERE e.title = $1`, [ENVIRONMENT_TITLE])
      .then((r) => Number(r.rows[0]?.n))
      .catch(() => 0);
    await probe.end();
    if (found === count) {
      console.log(`Base ${BROKER_DB_NAME} déjà remplie (${count} organisations) : réutilisée (BENCH_RESEED_BROKER=true pour la recréer).`);
      await admin.end();
      await (await openPostgres(url.toString(), { max: 1 })).close();
      return url.toString();
    }
  }
  await admin.query(`DROP DATABASE IF EXISTS ${BROKER_DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${BROKER_DB_NAME}`);
  await admin.end();
  const handle = await openPostgres(url.toString(), { max: 1 });
  const environmentUuid = await withSystem(handle.db, async (tx) => {
    const environment = await createEnvironment(tx, { title: ENVIRONMENT_TITLE });
    const broker = await createUser(tx, { email: BROKER_EMAIL, password, roles: ['SUPERADMIN'] });
    await attachToEnvironment(tx, environment.uuid, broker.uuid);
    return environment.uuid;
  });
  await handle.close();
  const seed = new pg.Client({ connectionString: url.toString() });
  await seed.connect();
  console.log(`  ${count} organisations du courtier…`);
  await seed.query('BEGIN');
  try {
    for (const statement of SEED) {
      const started = Date.now();
      const params = statement.includes('$2') ? [environmentUuid, count] : statement.includes('$1') ? [environmentUuid] : [];
      const result = await seed.query(statement, params);
      console.log(`  ${result.rowCount ?? 0} lignes en ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    await seed.query('COMMIT');
  } catch (error) {
    await seed.query('ROLLBACK');
    throw error;
  }
  await seed.query('VACUUM ANALYZE');
  await seed.end();
  return url.toString();
}
