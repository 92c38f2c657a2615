// The French column headers of the registers' spreadsheets, by the contract's field names: what an
// export writes and what an import recognises first for the same field (an exported file imports
// back unchanged). No zod here (decision 015).

export const DRIVER_HEADERS = {
  lastName: 'Nom',
  firstName: 'Prénom',
  email: 'E-mail',
  phone: 'Téléphone',
} as const;

export const VEHICULE_HEADERS = {
  immatriculation: 'Immatriculation',
  brand: 'Marque',
  model: 'Modèle',
  type: 'Catégorie',
  circulationDate: 'Date de mise en circulation',
  entryDate: "Date d'entrée",
  exitDate: 'Date de sortie',
} as const;

export const SINISTER_HEADERS = {
  sinisterIntermediateRef: 'N° sinistre',
  sinisterDate: 'Date de survenance',
  city: 'Ville',
  immatriculation: 'Immatriculation',
  driverLastName: 'Nom du conducteur',
  driverFirstName: 'Prénom du conducteur',
  guarantee: 'Garantie',
  status: 'Statut',
  isDeclared: 'Déclaré',
  responsibilityRate: 'Responsabilité (%)',
  hasHumanInjury: 'Dommages corporels',
  damagedVehicule: 'Véhicule endommagé',
  isThirdImplicated: 'Tiers impliqué',
  ida: 'IDA',
  openedAt: "Date d'ouverture",
  closedAt: 'Date de clôture',
  paidAmount: 'Réglé',
  reserveAmount: 'Provision',
  totalCost: 'Coût total',
  description: 'Circonstances',
} as const;
