import { CGU_VERSION, DocumentSchema, MediaItemSchema, type DocumentItem, type Driver, type MediaItem, type Organization, type OrganizationUser, type User } from '@flotte/contract';

export const ORG_A: Organization = {
  uuid: '0b6f3a4e-1f4c-4a57-9a53-6f3e2a1d0001',
  title: 'Transports Martin',
  avatar: null,
  environment: { uuid: '0b6f3a4e-1f4c-4a57-9a53-6f3e2a1d0e01', title: 'Courtage Demo' },
  subscription: null,
};

export const ORG_B: Organization = {
  uuid: '0b6f3a4e-1f4c-4a57-9a53-6f3e2a1d0002',
  title: 'Ambulances Durand',
  avatar: null,
  environment: { uuid: '0b6f3a4e-1f4c-4a57-9a53-6f3e2a1d0e01', title: 'Courtage Demo' },
  subscription: null,
};

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    uuid: '5d1c2b3a-0000-4000-8000-000000000001',
    email: 'claire.dupont@demo.fr',
    firstName: 'Claire',
    lastName: 'Dupont',
    roles: ['ADMIN'],
    avatar: null,
    description: null,
    phone: '+33612345678',
    currentOrganizationUser: { uuid: '7e000000-0000-4000-8000-0000000000a1', organization: ORG_A },
    currentEnvironmentUser: null,
    cguAcceptedVersion: CGU_VERSION,
    onboardingStep: null,
    ...overrides,
  };
}

/** A member of an organization; `twoFactor` as the API tells it to a superadmin (null to others). */
export function makeLink(user: User, organization: Organization, uuid: string, role: OrganizationUser['role'] = 'USER', twoFactor: boolean | null = null): OrganizationUser {
  return {
    uuid,
    organization,
    user: { uuid: user.uuid, firstName: user.firstName, lastName: user.lastName, email: user.email, avatar: null, twoFactor },
    role,
  };
}

export function page<T>(data: T[]) {
  return { data, page: 1, nbOfPages: 1, total: data.length };
}

let driverSeq = 0;

/** A driver as GET /api/driver answers it; the uuid is unique unless given. */
export function makeDriver(overrides: Partial<Driver> = {}): Driver {
  driverSeq += 1;
  return {
    uuid: `d0000000-0000-4000-8000-${String(driverSeq).padStart(12, '0')}`,
    firstName: 'Élodie',
    lastName: 'Écuyer',
    email: 'elodie.ecuyer@transports-martin.fr',
    phone: '+33612345678',
    documents: [],
    isArchived: false,
    archivedAt: null,
    createdAt: '2025-01-15T09:00:00.000Z',
    ...overrides,
  };
}

/** One page of a register list with its archive counts. */
export function registerPage<T>(data: T[], extra: { page?: number; total?: number; nbOfArchived?: number; nbInActivity?: number; sums?: Record<string, number> } = {}) {
  const total = extra.total ?? data.length;
  return {
    data,
    page: extra.page ?? 1,
    nbOfPages: Math.max(1, Math.ceil(total / 10)),
    total,
    nbOfArchived: extra.nbOfArchived ?? 0,
    nbInActivity: extra.nbInActivity ?? total,
    // A claims' page carries the total cost of its filter: the rows' own unless the test says.
    sums: extra.sums ?? { totalCost: data.reduce((sum, row) => sum + ((row as { totalCost?: number }).totalCost ?? 0), 0) },
  };
}

// Claims (sinisters). Its own import, so the registers' fixtures can grow side by side.
import type { Guarantee, Sinister } from '@flotte/contract';

export const GUARANTEES: Guarantee[] = [
  { uuid: 'a0000000-0000-4000-8000-000000000001', label: 'Responsabilité civile' },
  { uuid: 'a0000000-0000-4000-8000-000000000002', label: 'Bris de glace' },
  { uuid: 'a0000000-0000-4000-8000-000000000003', label: 'Dommages tous accidents' },
];

let sinisterSeq = 0;

/** A claim as GET /api/sinister answers it; the uuid is unique unless given. */
export function makeSinister(overrides: Partial<Sinister> = {}): Sinister {
  sinisterSeq += 1;
  return {
    uuid: `50000000-0000-4000-8000-${String(sinisterSeq).padStart(12, '0')}`,
    sinisterIntermediateRef: 'SIN-2026-0042',
    sinisterDate: '2026-03-14',
    city: 'Villefranche-sur-Saône',
    ida: true,
    hasHumanInjury: false,
    damagedVehicule: true,
    isThirdImplicated: true,
    isDeclared: true,
    responsibilityRate: 100,
    immatriculation: 'AB123CD',
    vehicule: { uuid: 'e0000000-0000-4000-8000-000000000001', immatriculation: 'AB123CD', brand: 'Renault', model: 'Master' },
    driver: { uuid: 'd0000000-0000-4000-8000-000000000901', firstName: 'Élodie', lastName: 'Écuyer' },
    totalCost: 1234.56,
    status: 'open',
    openedAt: '2026-03-14',
    closedAt: null,
    paidAmount: 0,
    reserveAmount: 1234.56,
    description: null,
    guarantee: GUARANTEES[1]!,
    documents: [],
    isArchived: false,
    archivedAt: null,
    createdAt: '2026-03-15T09:00:00.000Z',
    ...overrides,
  };
}

// Vehicles. Its own import, like the claims' above: the registers' fixtures grow side by side.
import type { Vehicule } from '@flotte/contract';

let vehiculeSeq = 0;

/** A vehicle as GET /api/vehicule answers it (plate normalised); the uuid is unique unless given. */
export function makeVehicule(overrides: Partial<Vehicule> = {}): Vehicule {
  vehiculeSeq += 1;
  return {
    uuid: `e0000000-0000-4000-8000-${String(vehiculeSeq).padStart(12, '0')}`,
    brand: 'Renault',
    model: 'Kangoo',
    type: 'VUL',
    circulationDate: '2021-03-15',
    entryDate: '2022-01-10',
    exitDate: null,
    immatriculation: 'FG123HJ',
    immatriculationWarning: null,
    documents: [],
    isArchived: false,
    archivedAt: null,
    createdAt: '2025-01-15T09:00:00.000Z',
    ...overrides,
  };
}

let documentSeq = 0;

/**
 * A document of the GED as the API answers it (checked by the contract's schema: a stub must be a
 * valid answer): a PDF file of 1,2 Mo by default, or a folder; a fresh uuid unless given.
 */
export function makeDocument(overrides: Partial<DocumentItem> & { name: string; kind?: 'folder' | 'file' }): DocumentItem {
  const { name, kind = 'file', ...rest } = overrides;
  return DocumentSchema.parse({
    uuid: `9d000000-0000-4000-8000-${String(++documentSeq).padStart(12, '0')}`,
    kind,
    folderName: kind === 'folder' ? name : null,
    parent: null,
    media: kind === 'file' ? { name } : null,
    size: kind === 'file' ? 1_258_291 : null,
    type: kind === 'file' ? 'application/pdf' : null,
    author: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    expiresOn: null,
    deletedAt: null,
    ...rest,
  });
}

/** A file of the media library: a document with the record it is attached to (none by default). */
export function makeMediaItem(overrides: Partial<MediaItem> & { name: string }): MediaItem {
  const { entity = null, ...rest } = overrides;
  return MediaItemSchema.parse({ ...makeDocument({ ...rest, kind: 'file' }), entity });
}
