// The contract: zod schemas (one module per feature + common.ts, primitives.ts) and, in modules free
// of zod, the constants, labels, formatters and rules the web uses outside its forms (decision 015).
// "sideEffects": false (package.json) lets the web's bundler leave out the schema modules, and zod,
// wherever only those are imported.
export * from './constants.js';
export * from './labels.js';
export * from './format.js';
export * from './rules.js';
export * from './plates.js';
export * from './phones.js';
export * from './spreadsheet-headers.js';
export * from './primitives.js';
export * from './common.js';
export * from './images.js';
export * from './money.js';
export * from './passwords.js';
export * from './auth.js';
export * from './totp.js';
export * from './users.js';
export * from './cgu.js';
export * from './account.js';
export * from './organizations.js';
export * from './broker.js';
export * from './invitations.js';
export * from './signup-rules.js';
export * from './signup.js';
export * from './environments.js';
export * from './reports.js';
export * from './drivers.js';
export * from './vehicules.js';
export * from './sinisters.js';
export * from './indicators.js';
export * from './dashboard.js';
export * from './insurance-contract.js';
export * from './insurance-intermediary.js';
export * from './imports.js';
export * from './exports.js';
export * from './document-names.js';
export * from './documents.js';
export * from './alert-labels.js';
export * from './alerts.js';
export * from './surveys.js';
export * from './audit-log.js';
export * from './billing.js';
export * from './idempotency.js';
