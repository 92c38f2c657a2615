import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Filled in by the vehicules register work of issue 3.
export const vehiculesRoutes: FastifyPluginAsyncZod = async () => {};
