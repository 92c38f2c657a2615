// Loaded on demand by format.ts: the contract's formatPhone and libphonenumber with it.
export { formatPhone } from '@flotte/contract';
