import { ErrorSchema } from '@flotte/contract';

/** Declares the error envelope for the given statuses (every route documents what it can answer). */
export function errorResponses<const C extends readonly number[]>(...codes: C) {
  return Object.fromEntries(codes.map((code) => [code, ErrorSchema])) as { [K in C[number]]: typeof ErrorSchema };
}

/** The statuses every authenticated route can answer besides its own. */
export const authErrors = errorResponses(401);
