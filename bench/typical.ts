/**
 * Typical organizations beside the giant one: their sizes (log-normal, deterministic), their seed
 * in SQL (the same statements on PostgreSQL and PGlite), how a complete seed is recognised, and
 * what the load generator needs to know about each of them (its user, its counts, the names,
 * plates, cities and references it holds, to type them as a person would).
 */

/** Every typical organization's user has an address at this domain: that is how they are found. */
export const TYPICAL_DOMAIN = 'typique.bench-flotte.fr';
/** Drivers created by the load generator: removed before each run, so runs do not pile up. */
export const CREATED_DOMAIN = 'embauche.bench-flotte.fr';
/** The seed of the sizes, names and plates (issue 22). */
export const TYPICAL_SEED = 22;

/** Anything that runs one SQL statement with parameters: a pg client, PGlite or its transaction. */
export type Sql = { query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }> };

export type Rng = () => number;
/** mulberry32: small, fast, deterministic. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The standard normal quantile (Acklam's rational approximation, |error| < 1.2e-9). */
function normalQuantile(p: number): number {
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const [a0, a1, a2, a3, a4, a5] = a as [number, number, number, number, number, number];
  const [b0, b1, b2, b3, b4] = b as [number, number, number, number, number];
  const [c0, c1, c2, c3, c4, c5] = c as [number, number, number, number, number, number];
  const [d0, d1, d2, d3] = d as [number, number, number, number];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) / ((((d0 * q + d1) * q + d2) * q + d3) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a0 * r + a1) * r + a2) * r + a3) * r + a4) * r + a5) * q) / (((((b0 * r + b1) * r + b2) * r + b3) * r + b4) * r + 1);
}

const ACTIVITIES = [
  // [title word, fleet profile: 0 cars, 1 vans, 2 lorries, 3 mixed, 4 coaches]
  ['Transports', 2],
  ['Ambulances', 1],
  ['Taxis', 0],
  ['Déménagements', 2],
  ['Livraisons', 1],
  ['Autocars', 4],
  ['Location', 0],
  ['Plomberie', 1],
  ['Électricité', 1],
  ['Paysages', 3],
  ['Maçonnerie', 3],
  ['Menuiserie', 1],
  ['Couverture', 1],
  ['Messagerie', 1],
  ['Frigorifiques', 2],
  ['Dépannage', 3],
  ['Nettoyage', 1],
  ['BTP', 3],
  ['Chauffage', 1],
  ['Services à domicile', 0],
] as const;

export const FIRST_NAMES = [
  'Julien', 'Nicolas', 'Thomas', 'Sébastien', 'Mathieu', 'Kévin', 'Romain', 'Nathalie', 'Sandrine', 'Céline', 'Émilie', 'Laurent',
  'Stéphane', 'David', 'Christophe', 'Frédéric', 'Aurélie', 'Karim', 'Mehdi', 'Sophie', 'Isabelle', 'Grégory', 'Jérôme', 'Hélène',
  'Amandine', 'Yannick', 'Cédric', 'Océane', 'Léa', 'Hugo', 'Chloé', 'Maëlle', 'Noémie', 'Raphaël', 'Théo', 'Lucas', 'Inès', 'Zoé',
  'Anaïs', 'Loïc', 'Gaëlle', 'François', 'Benoît', 'Jean-Pierre', 'Marie-Claire', 'Pascal', 'Véronique', 'Éric', 'Franck', 'Patrick',
  'Sylvie', 'Valérie', 'Mélanie', 'Bérénice', 'Joël', 'Hervé', 'Régis', 'Ludovic', 'Yasmine', 'Samir', 'Fatima', 'Nadia', 'Rachid',
  'Youssef', 'Agnès', 'Manon', 'Camille', 'Clément', 'Jérémy', 'Adrien',
];

export const LAST_NAMES = [
  'Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Simon', 'Laurent', 'Lefèbvre',
  'Michel', 'Garcia', 'David', 'Bertrand', 'Roux', 'Vincent', 'Fournier', 'Morel', 'Girard', 'André', 'Lefèvre', 'Mercier', 'Dupont',
  'Lambert', 'Bonnet', 'François', 'Martinez', 'Legrand', 'Garnier', 'Faure', 'Rousseau', 'Blanc', 'Guérin', 'Muller', 'Henry',
  'Roussel', 'Nicolas', 'Perrin', 'Morin', 'Mathieu', 'Clément', 'Gauthier', 'Dumont', 'Lopez', 'Fontaine', 'Chevalier', 'Robin',
  'Masson', 'Sanchez', 'Gérard', 'Nguyen', 'Boyer', 'Denis', 'Lemaire', 'Duval', 'Joly', 'Gautier', 'Roger', 'Roche', 'Roy', 'Noël',
  'Meyer', 'Lucas', 'Meunier', 'Jean', 'Pérez', 'Marchand', 'Dufour', 'Blanchard', 'Marie', 'Barbier', 'Brun', 'Dumas', 'Brunet',
  'Schmitt', 'Leroux', 'Colin', 'Fernandez', 'Pierre', 'Renard', 'Arnaud', 'Rolland', 'Caron', 'Aubert', 'Giraud', 'Leclerc', 'Vidal',
  'Bourgeois', 'Renaud', 'Lemoine', 'Picard', 'Gaillard', 'Philippe', 'Lacroix', 'Dupuis', 'Olivier', 'Louis', 'Charpentier',
  'Moulin', 'Guillaume', 'Rivière', 'Le Gall', 'Le Goff', 'Da Silva', 'Ferreira', 'Benoît', 'Chauvin', 'Hamon', 'Hoarau', 'Kerhervé',
  'Ménard', 'Bénard', 'Besnard', 'Thébault', 'Pelletier', 'Lévêque', 'Étienne', 'Ollivier',
];

const CITIES = [
  'Lyon', 'Villeurbanne', 'Vénissieux', 'Saint-Étienne', 'Grenoble', 'Valence', 'Mâcon', 'Chambéry', 'Annecy', 'Dijon', 'Paris',
  'Marseille', 'Toulouse', 'Nantes', 'Lille', 'Bordeaux', 'Rennes', 'Brest', 'Quimper', 'Angers', 'Le Mans', 'Tours', 'Orléans',
  'Limoges', 'Clermont-Ferrand', 'Besançon', 'Metz', 'Nancy', 'Strasbourg', 'Mulhouse', 'Reims', 'Amiens', 'Rouen', 'Le Havre',
  'Caen', 'Nîmes', 'Montpellier', 'Béziers', 'Perpignan', 'Nice', 'Toulon', 'Avignon', 'Pau', 'Bayonne', 'La Rochelle', 'Poitiers',
  'Évreux', 'Châteauroux', 'Sète', 'Saint-Nazaire',
];

const INSURERS = ['AXA', 'MMA', 'ALZ', 'GEN', 'MAAF', 'GMF', 'MACIF', 'HIS', 'COVEA', 'GRPM'];

export type TypicalOrganization = {
  k: number;
  title: string;
  domain: string;
  email: string;
  firstName: string;
  lastName: string;
  vehicles: number;
  drivers: number;
  claims: number;
  /** Fleet profile: which brands and models (see MODELS in the seed). */
  profile: number;
  /** Index of its home city in CITIES: its claims happen around there. */
  city: number;
  insurer: string;
};

function slug(text: string) {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * `count` organizations whose vehicle counts follow a log-normal law (median 400, σ 0.8, at most
 * 3 000: of 300, the largest have 3 000, 3 000, 2 715 and 2 455 vehicles, the smallest 38), taken at evenly spaced
 * quantiles and shuffled, so the same count always gives the same organizations. Drivers ≈ 1.2
 * per vehicle, claims ≈ 1.5.
 */
export function typicalOrganizations(count: number, seed = TYPICAL_SEED): TypicalOrganization[] {
  const random = rng(seed);
  const sizes = Array.from({ length: count }, (_, i) => Math.min(3000, Math.max(20, Math.round(400 * Math.exp(0.8 * normalQuantile((i + 0.5) / count))))));
  for (let i = sizes.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [sizes[i], sizes[j]] = [sizes[j]!, sizes[i]!];
  }
  const pairs = ACTIVITIES.flatMap((_, a) => LAST_NAMES.map((_, n) => [a, n] as const));
  for (let i = pairs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pairs[i], pairs[j]] = [pairs[j]!, pairs[i]!];
  }
  const suffixes = ['', '', '', ' SARL', ' SAS', ' & Fils', ' Frères', ' et Associés'];
  return sizes.map((vehicles, i) => {
    const [a, n] = pairs[i]!;
    const [activity, profile] = ACTIVITIES[a]!;
    const name = LAST_NAMES[n]!;
    const domain = `${slug(`${activity} ${name}`)}.fr`;
    const firstName = FIRST_NAMES[Math.floor(random() * FIRST_NAMES.length)]!;
    const lastName = LAST_NAMES[Math.floor(random() * LAST_NAMES.length)]!;
    return {
      k: i + 1,
      title: `${activity} ${name}${suffixes[Math.floor(random() * suffixes.length)]}`,
      domain,
      email: `gestion.${slug(`${activity} ${name}`)}@${TYPICAL_DOMAIN}`,
      firstName,
      lastName,
      vehicles,
      drivers: Math.max(1, Math.round(vehicles * (1 + 0.4 * random()))),
      claims: Math.round(vehicles * (1.2 + 0.6 * random())),
      profile,
      city: Math.floor(random() * CITIES.length),
      insurer: INSURERS[Math.floor(random() * INSURERS.length)]!,
    };
  });
}

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;
const sqlArray = (values: readonly string[]) => `ARRAY[${values.map(sqlText).join(',')}]`;

// brand, model, category (a code of VEHICULE_TYPES)
const MODELS = [
  ['Renault', 'Clio', 'VP'], ['Peugeot', '208', 'VP'], ['Citroën', 'C3', 'VP'], ['Toyota', 'Yaris', 'VP'], ['Dacia', 'Sandero', 'VP'],
  ['Peugeot', '308', 'VP'], ['Renault', 'Mégane', 'VP'], ['Škoda', 'Octavia', 'VP'], ['Renault', 'Kangoo', 'VUL'], ['Citroën', 'Berlingo', 'VUL'],
  ['Peugeot', 'Partner', 'VUL'], ['Renault', 'Trafic', 'VUL'], ['Ford', 'Transit', 'VUL'], ['Fiat', 'Ducato', 'VUL'], ['Mercedes-Benz', 'Sprinter', 'VUL'],
  ['Renault', 'Master', 'VUL'], ['Iveco', 'Daily', 'VUL'], ['Volkswagen', 'Crafter', 'VUL'], ['Renault Trucks', 'T 480', 'TRACTEUR'], ['Volvo', 'FH', 'TRACTEUR'],
  ['Scania', 'R 450', 'TRACTEUR'], ['DAF', 'XF', 'TRACTEUR'], ['Mercedes-Benz', 'Actros', 'PL'], ['Iveco', 'Eurocargo', 'PL'], ['Renault Trucks', 'D Wide', 'PL'],
  ['Krone', 'Profi Liner', 'SEMI_REMORQUE'], ['Schmitz Cargobull', 'S.KO Cool', 'SEMI_REMORQUE'], ['Iveco', 'Crossway', 'AUTOCAR'],
  ['Yamaha', 'X-Max 125', 'DEUX_ROUES_125'], ['Manitou', 'MT 1840', 'ENGIN_CHANTIER'],
] as const;
// Ten model indexes (1-based) per fleet profile: cars, vans, lorries, mixed, coaches.
const PROFILES = [
  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  [9, 10, 11, 12, 13, 14, 15, 16, 17, 1],
  [19, 20, 21, 22, 23, 24, 26, 27, 15, 25],
  [1, 2, 9, 12, 14, 16, 23, 24, 30, 29],
  [28, 28, 28, 28, 15, 15, 1, 2, 28, 17],
];
// SIV plates: the first letter among the seven used so far, then any of 23 letters (no I, O, U).
const LETTERS = 'ABCDEFGHJKLMNPQRSTVWXYZ'.split('');
const PLATE_SPACE = 7 * 23 * 999 * 23 * 23; // 85 083 831; 104 729 is prime to it: plates differ within an organization

/**
 * The seed, in statements run in order inside one transaction: either the whole seed is there
 * or nothing is. $1 of the first statement: the organizations as JSON; of the users: the
 * password hash.
 */
function seedStatements(): { sql: string; params: 'organizations' | 'hash' | 'none'; label: string }[] {
  const first = sqlArray(FIRST_NAMES);
  const last = sqlArray(LAST_NAMES);
  const cities = sqlArray(CITIES);
  const letters = sqlArray(LETTERS);
  const models = `(VALUES ${MODELS.map(([b, m, t], i) => `(${i + 1}, ${sqlText(b)}, ${sqlText(m)}, ${sqlText(t)})`).join(', ')}) AS m(i, brand, model, type)`;
  const profiles = `ARRAY[${PROFILES.map((p) => `ARRAY[${p.join(',')}]`).join(',')}]`;
  return [
    {
      label: 'organisations',
      params: 'none',
      sql: `CREATE TEMP TABLE bench_typical (k int, title text, domain text, email text, first_name text, last_name text,
        vehicles int, drivers int, claims int, profile int, city int, insurer text,
        uuid uuid DEFAULT gen_random_uuid(), user_uuid uuid DEFAULT gen_random_uuid(), link_uuid uuid DEFAULT gen_random_uuid()) ON COMMIT DROP`,
    },
    {
      label: 'organisations',
      params: 'organizations',
      sql: `INSERT INTO bench_typical (k, title, domain, email, first_name, last_name, vehicles, drivers, claims, profile, city, insurer)
        SELECT k, title, domain, email, "firstName", "lastName", vehicles, drivers, claims, profile, city, insurer
        FROM json_to_recordset($1::json) AS x(k int, title text, domain text, email text, "firstName" text, "lastName" text,
          vehicles int, drivers int, claims int, profile int, city int, insurer text)`,
    },
    {
      label: 'organisations',
      params: 'none',
      sql: `INSERT INTO organizations (uuid, title, created_at) SELECT uuid, title, now() - (k * 3 % 900) * interval '1 day' FROM bench_typical`,
    },
    {
      label: 'utilisateurs',
      params: 'hash',
      sql: `INSERT INTO users (uuid, email, password_hash, first_name, last_name, roles)
        SELECT user_uuid, email, $1, first_name, last_name, ARRAY['ADMIN'] FROM bench_typical`,
    },
    {
      label: 'utilisateurs',
      params: 'none',
      sql: `INSERT INTO organization_users (uuid, organization_uuid, user_uuid) SELECT link_uuid, uuid, user_uuid FROM bench_typical`,
    },
    {
      label: 'utilisateurs',
      params: 'none',
      sql: `UPDATE users u SET current_organization_user_uuid = t.link_uuid FROM bench_typical t WHERE u.uuid = t.user_uuid`,
    },
    {
      label: 'conducteurs',
      params: 'none',
      sql: `INSERT INTO drivers (organization_uuid, first_name, last_name, email, phone, archived_at, created_at)
        SELECT t.uuid, n.fn, n.ln,
          CASE WHEN (g * 7 + t.k) % 5 <> 0 THEN lower(f_unaccent(replace(n.fn, ' ', ''))) || '.' || lower(f_unaccent(replace(n.ln, ' ', ''))) || '@' || t.domain END,
          CASE WHEN (g * 3 + t.k) % 9 <> 0 THEN '+33' || (6 + g % 2) || lpad(((t.k::bigint * 7919 + g::bigint * 104729) % 100000000)::text, 8, '0') END,
          CASE WHEN (g * 13 + t.k) % 12 = 0 THEN now() - ((g * 7) % 400) * interval '1 day' END,
          now() - ((g * 37 + t.k * 11) % 1500) * interval '1 day' - (g % 1440) * interval '1 minute'
        FROM bench_typical t
        CROSS JOIN LATERAL generate_series(1, t.drivers) g
        CROSS JOIN LATERAL (SELECT (${first})[1 + (g * 7 + t.k * 3) % ${FIRST_NAMES.length}] AS fn,
                                   (${last})[1 + (g * 31 + t.k * 17 + g / 7) % ${LAST_NAMES.length}] AS ln) n`,
    },
    {
      label: 'véhicules',
      params: 'none',
      sql: `INSERT INTO vehicules (organization_uuid, immatriculation, brand, model, type, circulation_date, entry_date, exit_date, archived_at, created_at)
        SELECT t.uuid,
          l[1 + p.r % 7] || l[1 + (p.r / 7) % 23] || lpad((1 + p.n % 999)::text, 3, '0') || l[1 + (p.r / 161) % 23] || l[1 + (p.r / 3703) % 23],
          m.brand, m.model, m.type, d.circulation, d.entry,
          CASE WHEN (g * 11 + t.k) % 12 = 0 THEN least(current_date, d.entry + 200 + (g * 17) % 1500) END,
          CASE WHEN (g * 11 + t.k) % 24 = 0 THEN now() - ((g * 7) % 300) * interval '1 day' END,
          d.entry::timestamptz + ((g * 13) % 600) * interval '1 minute'
        FROM bench_typical t
        CROSS JOIN LATERAL generate_series(1, t.vehicles) g
        CROSS JOIN (SELECT ${letters} AS l) letters
        CROSS JOIN LATERAL (SELECT (t.k::bigint * 7919 + g::bigint * 104729) % ${PLATE_SPACE} AS n) q
        CROSS JOIN LATERAL (SELECT q.n, q.n / 999 AS r) p
        CROSS JOIN LATERAL (SELECT date '2011-01-01' + ((g * 7919 + t.k * 131) % 5400) AS circulation) c
        CROSS JOIN LATERAL (SELECT c.circulation, least(current_date, c.circulation + (g * 31) % 700) AS entry) d
        JOIN ${models} ON m.i = (${profiles})[t.profile + 1][1 + (g * 7 + t.k + g / 10) % 10]`,
    },
    {
      label: 'sinistres',
      params: 'none',
      sql: `CREATE TEMP TABLE bench_v ON COMMIT DROP AS
        SELECT v.uuid, v.organization_uuid, row_number() OVER (PARTITION BY v.organization_uuid ORDER BY v.uuid) AS rn
        FROM vehicules v JOIN bench_typical t ON t.uuid = v.organization_uuid`,
    },
    {
      label: 'sinistres',
      params: 'none',
      sql: `CREATE TEMP TABLE bench_d ON COMMIT DROP AS
        SELECT d.uuid, d.organization_uuid, row_number() OVER (PARTITION BY d.organization_uuid ORDER BY d.uuid) AS rn
        FROM drivers d JOIN bench_typical t ON t.uuid = d.organization_uuid`,
    },
    { label: 'sinistres', params: 'none', sql: `CREATE INDEX ON bench_v (organization_uuid, rn)` },
    { label: 'sinistres', params: 'none', sql: `CREATE INDEX ON bench_d (organization_uuid, rn)` },
    {
      label: 'sinistres',
      params: 'none',
      // The plate comes from the vehicle and the driver's name from the driver (trigger), as the API does.
      sql: `INSERT INTO sinisters (organization_uuid, vehicule_uuid, driver_uuid, guarantee_uuid, sinister_intermediate_ref, sinister_date, city,
          ida, has_human_injury, damaged_vehicule, is_third_implicated, is_declared, responsibility_rate, immatriculation, reserve_cents,
          archived_at, created_at)
        SELECT t.uuid, v.uuid, d.uuid, gu.guarantees[1 + (g * 7 + t.k) % 17],
          t.insurer || '-' || to_char(s.day, 'YYYY') || '-' || lpad(((t.k::bigint * 7919 + g::bigint * 613) % 1000000)::text, 6, '0'),
          s.day,
          (${cities})[1 + (t.city + (g * 7919 % 6) * ((g % 3) + 1)) % ${CITIES.length}],
          g % 5 = 0, (g * 3 + t.k) % 40 = 0, g % 3 <> 0, g % 2 = 0, (g + t.k) % 4 <> 0,
          (ARRAY[0,25,50,75,100,NULL]::smallint[])[1 + (g * 5 + t.k) % 6],
          vv.immatriculation,
          15000 + ((g::bigint * 7919 + t.k * 104729) % 800000) + CASE WHEN (g * 3 + t.k) % 40 = 0 THEN 2500000 ELSE 0 END,
          CASE WHEN (g * 7 + t.k) % 33 = 0 THEN now() - ((g * 3) % 200) * interval '1 day' END,
          s.day::timestamptz + interval '7 hours' + ((g * 17) % 600) * interval '1 minute'
        FROM bench_typical t
        CROSS JOIN LATERAL generate_series(1, t.claims) g
        CROSS JOIN LATERAL (SELECT current_date - 1 - ((g * 37 + t.k * 101) % 1700) AS day) s
        JOIN bench_v v ON v.organization_uuid = t.uuid AND v.rn = 1 + (g::bigint * 7919 + t.k) % t.vehicles
        JOIN vehicules vv ON vv.uuid = v.uuid
        LEFT JOIN bench_d d ON g % 5 <> 0 AND d.organization_uuid = t.uuid AND d.rn = 1 + (g::bigint * 104729 + t.k) % t.drivers
        CROSS JOIN (SELECT array_agg(uuid ORDER BY position) AS guarantees FROM guarantees) gu`,
    },
  ];
}

/** How many typical organizations the database holds (0 when none, or when it has no such tables yet). */
export async function countTypical(db: Sql): Promise<number> {
  const { rows } = await db.query(
    `SELECT count(*)::int AS n FROM users u JOIN organization_users ou ON ou.user_uuid = u.uuid WHERE u.email LIKE '%@${TYPICAL_DOMAIN}'`,
  );
  return (rows[0] as { n: number }).n;
}

/** Removes the typical organizations (cascades to their registers) and their users. */
export async function removeTypical(db: Sql) {
  await db.query(
    `DELETE FROM organizations WHERE uuid IN (SELECT ou.organization_uuid FROM organization_users ou JOIN users u ON u.uuid = ou.user_uuid WHERE u.email LIKE '%@${TYPICAL_DOMAIN}')`,
  );
  await db.query(`DELETE FROM users WHERE email LIKE '%@${TYPICAL_DOMAIN}'`);
}

/** Drivers a previous run created (POST /api/driver of the mix). */
export async function removeCreatedDrivers(db: Sql) {
  await db.query(`DELETE FROM drivers WHERE email LIKE '%@${CREATED_DOMAIN}'`);
}

/**
 * Seeds `organizations` in one transaction, run by `transaction` (BEGIN/COMMIT on a pg client,
 * PGlite's transaction()). Prints each step's time.
 */
export async function seedTypical(
  transaction: (work: (tx: Sql) => Promise<void>) => Promise<void>,
  organizations: TypicalOrganization[],
  passwordHash: string,
) {
  const totals = organizations.reduce((s, o) => ({ v: s.v + o.vehicles, d: s.d + o.drivers, c: s.c + o.claims }), { v: 0, d: 0, c: 0 });
  console.log(
    `  ${organizations.length} organisations typiques : ${totals.v} véhicules, ${totals.d} conducteurs, ${totals.c} sinistres (médiane ${median(organizations.map((o) => o.vehicles))} véhicules, plus grande ${Math.max(...organizations.map((o) => o.vehicles))})…`,
  );
  const started = Date.now();
  await transaction(async (tx) => {
    let step = Date.now();
    let label = '';
    for (const statement of seedStatements()) {
      if (statement.label !== label) {
        if (label) console.log(`    ${label} : ${((Date.now() - step) / 1000).toFixed(1)} s`);
        label = statement.label;
        step = Date.now();
      }
      const params = statement.params === 'organizations' ? [JSON.stringify(organizations)] : statement.params === 'hash' ? [passwordHash] : undefined;
      await tx.query(statement.sql, params);
    }
    console.log(`    ${label} : ${((Date.now() - step) / 1000).toFixed(1)} s`);
  });
  console.log(`  Organisations typiques créées en ${((Date.now() - started) / 1000).toFixed(0)} s.`);
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** One typical organization as the load generator sees it. */
export type Tenant = {
  uuid: string;
  email: string;
  token: string;
  counts: { drivers: number; vehicules: number; sinisters: number };
  firstNames: string[];
  lastNames: string[];
  plates: string[];
  brands: string[];
  models: string[];
  types: string[];
  cities: string[];
  refs: string[];
};

/** What the typical organizations hold, read once before the measures (tokens filled in later). */
export async function loadTenants(db: Sql): Promise<Tenant[]> {
  const typical = `(SELECT ou.organization_uuid FROM organization_users ou JOIN users u ON u.uuid = ou.user_uuid WHERE u.email LIKE '%@${TYPICAL_DOMAIN}')`;
  type Row = Record<string, unknown> & { organization_uuid: string };
  const byOrg = (rows: unknown[]) => new Map((rows as Row[]).map((r) => [r.organization_uuid, r]));
  const users = (
    await db.query(
      `SELECT ou.organization_uuid, u.email FROM users u JOIN organization_users ou ON ou.user_uuid = u.uuid WHERE u.email LIKE '%@${TYPICAL_DOMAIN}' ORDER BY u.email`,
    )
  ).rows as { organization_uuid: string; email: string }[];
  const counts = (await db.query(`SELECT organization_uuid, register, active FROM register_counts WHERE organization_uuid IN ${typical}`)).rows as {
    organization_uuid: string;
    register: string;
    active: string | number;
  }[];
  const drivers = byOrg(
    (
      await db.query(
        `SELECT organization_uuid, array_agg(DISTINCT first_name) AS first_names, array_agg(DISTINCT last_name) AS last_names
         FROM drivers WHERE archived_at IS NULL AND organization_uuid IN ${typical} GROUP BY organization_uuid`,
      )
    ).rows,
  );
  const vehicles = byOrg(
    (
      await db.query(
        `SELECT organization_uuid, (array_agg(immatriculation ORDER BY uuid))[1:60] AS plates, array_agg(DISTINCT brand) AS brands,
           array_agg(DISTINCT model) AS models, array_agg(DISTINCT type) AS types
         FROM vehicules WHERE archived_at IS NULL AND immatriculation IS NOT NULL AND organization_uuid IN ${typical} GROUP BY organization_uuid`,
      )
    ).rows,
  );
  const claims = byOrg(
    (
      await db.query(
        `SELECT organization_uuid, array_agg(DISTINCT city) AS cities, (array_agg(sinister_intermediate_ref ORDER BY uuid))[1:40] AS refs
         FROM sinisters WHERE archived_at IS NULL AND organization_uuid IN ${typical} GROUP BY organization_uuid`,
      )
    ).rows,
  );
  const list = (row: Row | undefined, key: string) => ((row?.[key] as string[] | undefined) ?? []).filter(Boolean);
  return users.map(({ organization_uuid: uuid, email }) => {
    const count = (register: string) => Number(counts.find((c) => c.organization_uuid === uuid && c.register === register)?.active ?? 0);
    return {
      uuid,
      email,
      token: '',
      counts: { drivers: count('drivers'), vehicules: count('vehicules'), sinisters: count('sinisters') },
      firstNames: list(drivers.get(uuid), 'first_names'),
      lastNames: list(drivers.get(uuid), 'last_names'),
      plates: list(vehicles.get(uuid), 'plates'),
      brands: list(vehicles.get(uuid), 'brands'),
      models: list(vehicles.get(uuid), 'models'),
      types: list(vehicles.get(uuid), 'types'),
      cities: list(claims.get(uuid), 'cities'),
      refs: list(claims.get(uuid), 'refs'),
    };
  });
}
