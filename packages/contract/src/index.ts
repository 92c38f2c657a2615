export * from './common.js';
export * from './auth.js';
export * from './users.js';
export * from './organizations.js';
export * from './environments.js';
export * from './reports.js';
