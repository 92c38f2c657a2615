import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Filled in by the sinisters register work of issue 3.
export const sinistersRoutes: FastifyPluginAsyncZod = async () => {};
