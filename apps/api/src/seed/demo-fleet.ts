import type { VehiculeTypeCode } from '@flotte/contract';
import type { WriteTx } from '../db/scope.js';
import { createDrivers, createSinisters, createVehicules, type SinisterInput, type VehiculeInput } from './factories.js';

/**
 * Demo fleet registers: realistic French vehicles, drivers and three years of claims, always the
 * same (seeded pseudo-random), relative to the day the demo is created.
 */

function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const weighted = <T>(items: readonly (readonly [T, number])[]): T => {
    const total = items.reduce((sum, [, w]) => sum + w, 0);
    let roll = next() * total;
    for (const [item, weight] of items) {
      roll -= weight;
      if (roll < 0) return item;
    }
    return items[items.length - 1]![0];
  };
  return { next, int, pick, weighted, chance: (p: number) => next() < p };
}
type Random = ReturnType<typeof random>;

const DAY = 24 * 3600 * 1000;
const iso = (date: Date) => date.toISOString().slice(0, 10);
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY);

const SIV_LETTERS = 'ABCDEFGHJKLMNPQRSTVWXYZ';
function sivPlate(r: Random, used: Set<string>): string {
  for (;;) {
    const letters = () => SIV_LETTERS[r.int(0, SIV_LETTERS.length - 1)]! + SIV_LETTERS[r.int(0, SIV_LETTERS.length - 1)]!;
    const left = letters();
    const right = letters();
    if (left === 'SS' || right === 'SS' || left === 'WW') continue;
    const plate = `${left}${String(r.int(1, 999)).padStart(3, '0')}${right}`;
    if (!used.has(plate)) {
      used.add(plate);
      return plate;
    }
  }
}

const MODELS: Record<VehiculeTypeCode, readonly (readonly [string, string])[]> = {
  VP: [['Renault', 'Clio'], ['Peugeot', '208'], ['Citroën', 'C3'], ['Toyota', 'Yaris'], ['Dacia', 'Sandero'], ['Peugeot', '308'], ['Renault', 'Mégane'], ['Škoda', 'Octavia']],
  VUL: [['Renault', 'Kangoo'], ['Renault', 'Trafic'], ['Renault', 'Master'], ['Peugeot', 'Partner'], ['Citroën', 'Berlingo'], ['Ford', 'Transit'], ['Fiat', 'Ducato'], ['Mercedes-Benz', 'Sprinter']],
  PL: [['Renault Trucks', 'D Wide'], ['Volvo', 'FL'], ['Mercedes-Benz', 'Atego'], ['Iveco', 'Eurocargo'], ['DAF', 'LF']],
  TRACTEUR: [['Renault Trucks', 'T 480'], ['Volvo', 'FH 500'], ['Scania', 'R 450'], ['Mercedes-Benz', 'Actros'], ['DAF', 'XF']],
  AUTOCAR: [['Iveco', 'Crossway'], ['Mercedes-Benz', 'Tourismo']],
  REMORQUE_LEGERE: [['Lider', '39150'], ['Humbaur', 'HA 132513']],
  REMORQUE_LOURDE: [['Fruehauf', 'Porte-engins'], ['Lecitrailer', 'Plateau']],
  SEMI_REMORQUE: [['Schmitz Cargobull', 'S.KO Cool'], ['Krone', 'Profi Liner'], ['Chereau', 'Inogam']],
  DEUX_ROUES_125: [['Yamaha', 'NMAX 125'], ['Honda', 'PCX 125']],
  DEUX_ROUES_PLUS: [['Yamaha', 'Tracer 7'], ['BMW', 'R 1250 RT']],
  ENGIN_CHANTIER: [['Caterpillar', '301.7 CR'], ['JCB', '3CX'], ['Manitou', 'MT 1840'], ['Kubota', 'KX019']],
  ENGIN_AGRICOLE: [['John Deere', '6120M'], ['Fendt', '313 Vario']],
  AUTRE: [['Piaggio', 'Porter NP6']],
};

const FIRST_NAMES = ['Julien', 'Nicolas', 'Thomas', 'Sébastien', 'Mathieu', 'Kévin', 'Romain', 'Nathalie', 'Sandrine', 'Céline', 'Émilie', 'Laurent', 'Stéphane', 'David', 'Christophe', 'Frédéric', 'Aurélie', 'Karim', 'Mehdi', 'Sophie', 'Isabelle', 'Grégory', 'Jérôme', 'Hélène', 'Amandine', 'Yannick', 'Cédric', 'Océane', 'Léa', 'Hugo', 'Antoine', 'Mélanie', 'Fabrice', 'Rachid', 'Pascal'];
const LAST_NAMES = ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Simon', 'Laurent', 'Lefèbvre', 'Michel', 'Garcia', 'David', 'Bertrand', 'Roux', 'Vincent', 'Fournier', 'Morel', 'Girard', 'André', 'Lefèvre', 'Mercier', 'Dupont', 'Lambert', 'Bonnet', 'François', 'Martinez', 'Legrand', 'Garnier', 'Faure', 'Rousseau', 'Blanc', 'Guérin', 'Muller', 'Henry', 'Roussel', 'Nicolas', 'Perrin', 'Morin', 'Mathieu', 'Clément', 'Gauthier', 'Dumont', 'Lopez', 'Fontaine', 'Chevalier', 'Robin'];
const CITIES = ['Lyon', 'Villeurbanne', 'Vénissieux', 'Saint-Priest', 'Saint-Étienne', 'Grenoble', 'Valence', 'Mâcon', 'Bourg-en-Bresse', 'Chambéry', 'Annecy', 'Villefranche-sur-Saône', 'Vienne', 'Clermont-Ferrand', 'Dijon', 'Mions', 'Corbas', 'Chassieu', 'Roanne', 'Montélimar'];

const GUARANTEE_WEIGHTS = [
  ['Responsabilité civile', 30],
  ['Bris de glace', 20],
  ['Dommages collision', 15],
  ['Dommages tous accidents', 10],
  ['Vol', 5],
  ['Incendie', 2],
  ['Tempête et événements climatiques', 4],
  ['Catastrophes naturelles', 2],
  ['Assistance', 5],
  ['Marchandises transportées', 4],
  ['Défense pénale et recours', 3],
] as const;

function slug(text: string) {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z]+/g, '-');
}

type FleetPlan = {
  seed: number;
  domain: string;
  vehicles: number;
  types: readonly (readonly [VehiculeTypeCode, number])[];
  drivers: number;
  archivedDrivers: number;
  claims: number;
};

export const MARTIN_PLAN: FleetPlan = {
  seed: 20240101,
  domain: 'transports-martin.fr',
  vehicles: 60,
  types: [['VUL', 22], ['PL', 10], ['TRACTEUR', 8], ['SEMI_REMORQUE', 8], ['VP', 10], ['REMORQUE_LEGERE', 2]],
  drivers: 45,
  archivedDrivers: 6,
  claims: 150,
};

export const DURAND_PLAN: FleetPlan = {
  seed: 19870615,
  domain: 'btp-durand.fr',
  vehicles: 18,
  types: [['VUL', 8], ['PL', 3], ['ENGIN_CHANTIER', 4], ['VP', 2], ['REMORQUE_LOURDE', 1]],
  drivers: 14,
  archivedDrivers: 2,
  claims: 32,
};

export async function seedFleet(tx: WriteTx, organizationUuid: string, plan: FleetPlan, today = new Date()) {
  const r = random(plan.seed);
  const start = addDays(today, -3 * 365);
  const plates = new Set<string>();

  // Vehicles: most entered over the three years, some were there before; about one in five left.
  const vehicleInputs: VehiculeInput[] = Array.from({ length: plan.vehicles }, () => {
    const type = r.weighted(plan.types);
    const [brand, model] = r.pick(MODELS[type]);
    const entry = r.chance(0.3) ? addDays(start, -r.int(30, 900)) : addDays(start, r.int(0, 3 * 365 - 20));
    const circulation = addDays(entry, -r.int(0, 4 * 365));
    const leaves = r.chance(0.2);
    const exit = leaves ? addDays(entry, r.int(120, 900)) : null;
    const exited = exit !== null && exit < today;
    return {
      immatriculation: sivPlate(r, plates),
      brand,
      model,
      type,
      circulationDate: iso(circulation),
      entryDate: iso(entry),
      exitDate: exit && exited ? iso(exit) : null,
      // A vehicle that left more than six months ago has been archived.
      archivedAt: exit && exited && exit < addDays(today, -180) ? addDays(exit, 1) : null,
    };
  });
  const vehicles = await createVehicules(tx, organizationUuid, vehicleInputs);

  const usedNames = new Set<string>();
  const driverInputs = Array.from({ length: plan.drivers }, (_, i) => {
    let firstName: string;
    let lastName: string;
    do {
      firstName = r.pick(FIRST_NAMES);
      lastName = r.pick(LAST_NAMES);
    } while (usedNames.has(`${firstName} ${lastName}`));
    usedNames.add(`${firstName} ${lastName}`);
    return {
      firstName,
      lastName,
      email: r.chance(0.85) ? `${slug(firstName)}.${slug(lastName)}@${plan.domain}` : null,
      phone: r.chance(0.9) ? `+33${r.pick(['6', '7'])}${String(r.int(10_000_000, 99_999_999))}` : null,
      archivedAt: i < plan.archivedDrivers ? addDays(today, -r.int(20, 700)) : null,
    };
  });
  const drivers = await createDrivers(tx, organizationUuid, driverInputs);
  const activeDrivers = drivers.filter((d) => d.archivedAt === null);

  const claims: SinisterInput[] = [];
  for (let i = 0; i < plan.claims; i++) {
    const date = addDays(today, -r.int(0, 3 * 365));
    const dateIso = iso(date);
    const present = vehicles.filter((v) => v.entryDate! <= dateIso && (v.exitDate === null || v.exitDate >= dateIso));
    const vehicle = r.pick(present.length > 0 ? present : vehicles);
    const guarantee = r.weighted(GUARANTEE_WEIGHTS);
    const third = guarantee === 'Responsabilité civile' || (guarantee === 'Dommages collision' && r.chance(0.7)) || (guarantee === 'Défense pénale et recours');
    const injury = third && r.chance(0.06);
    const glass = guarantee === 'Bris de glace';
    const declared = injury || r.chance(glass ? 0.55 : 0.72);
    const costEuros = injury
      ? r.int(6_000, 48_000)
      : glass
        ? r.int(280, 1_250)
        : guarantee === 'Vol' || guarantee === 'Incendie'
          ? r.int(3_000, 28_000)
          : r.int(350, 9_500);
    const year = date.getUTCFullYear();
    claims.push({
      vehiculeUuid: vehicle.uuid,
      driverUuid: r.chance(0.8) && activeDrivers.length > 0 ? r.pick(activeDrivers).uuid : null,
      guaranteeLabel: guarantee,
      sinisterIntermediateRef: declared ? `${String(year).slice(2)}${r.pick(['A', 'M', 'F'])}${String(r.int(100_000, 999_999))}` : null,
      sinisterDate: dateIso,
      city: r.pick(CITIES),
      ida: third && !injury && r.chance(0.6),
      hasHumanInjury: injury,
      damagedVehicule: !['Vol', 'Assistance', 'Défense pénale et recours', 'Marchandises transportées'].includes(guarantee) || r.chance(0.3),
      isThirdImplicated: third,
      isDeclared: declared,
      responsibilityRate: third ? r.weighted([[0, 40], [25, 5], [50, 20], [75, 5], [100, 30]] as const) : glass ? null : r.chance(0.5) ? 100 : null,
      ...claimFollowUp(r, date, today, costEuros * 100 + r.int(0, 99), guarantee),
      archivedAt: r.chance(0.02) ? addDays(date, 30) : null,
    });
  }
  await createSinisters(tx, organizationUuid, claims);
  return { vehicles: vehicles.length, drivers: drivers.length, claims: claims.length };
}

const CIRCUMSTANCES: Record<string, string[]> = {
  'Bris de glace': ['Impact de gravillon sur autoroute, pare-brise fissuré', 'Vitre latérale brisée sur parking'],
  Vol: ['Véhicule volé de nuit devant le dépôt', 'Vol de matériel après effraction'],
  'Responsabilité civile': ['Refus de priorité au carrefour', 'Choc arrière dans un bouchon', 'Accrochage en manœuvre de livraison'],
  'Dommages collision': ['Collision avec un véhicule en stationnement', 'Choc latéral en changement de file'],
};

/**
 * Where a demo claim stands (decision 024): the older it is, the likelier it is settled. Open
 * claims have their cost reserved; in progress, part of it paid; closed, all of it paid, some
 * weeks after; refused, nothing paid.
 */
function claimFollowUp(r: Random, date: Date, today: Date, costCents: number, guarantee: string): Pick<SinisterInput, 'status' | 'openedAt' | 'closedAt' | 'paidCents' | 'reserveCents' | 'description'> {
  const ageDays = Math.round((today.getTime() - date.getTime()) / 86_400_000);
  const openedAt = iso(addDays(date, Math.min(ageDays, r.int(0, 6))));
  const description = r.chance(0.6) ? r.pick(CIRCUMSTANCES[guarantee] ?? ['Sinistre déclaré par le conducteur, constat amiable joint']) : null;
  const settled = ageDays > 270 ? r.chance(0.92) : ageDays > 60 ? r.chance(0.45) : false;
  if (settled) {
    const closedAt = iso(addDays(date, Math.min(ageDays, r.int(20, 240))));
    if (r.chance(0.08)) return { status: 'refused', openedAt, closedAt, paidCents: 0, reserveCents: 0, description };
    return { status: 'closed', openedAt, closedAt, paidCents: costCents, reserveCents: 0, description };
  }
  if (ageDays > 20 && r.chance(0.6)) {
    const paidCents = Math.round(costCents * r.pick([0.2, 0.4, 0.5, 0.7]));
    return { status: 'inProgress', openedAt, closedAt: null, paidCents, reserveCents: costCents - paidCents, description };
  }
  return { status: 'open', openedAt, closedAt: null, paidCents: 0, reserveCents: costCents, description };
}
