import {
  ClaimFrequencyQuerySchema,
  ClaimFrequencySchema,
  ClaimsByCategorySchema,
  ClaimsByGuaranteeSchema,
  ClaimsByResponsibilitySchema,
  CurrentHalfDifferenceSchema,
  DashboardConfigSchema,
  DashboardWindowQuerySchema,
  FleetSizeSchema,
  HalfDifferenceListSchema,
  LossRatioSchema,
  MonthlyClaimsSchema,
  TopDriversSchema,
  UpdateDashboardConfigBodySchema,
} from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import type { AuthContext } from '../../lib/auth-context.js';
import { errorResponses } from '../../lib/route-schemas.js';
import * as service from './dashboard.service.js';
import { ADMINS, EVERY_ROLE } from '../../plugins/route-access.js';

const WINDOW_HELP = 'startDate et endDate inclus (par défaut : les six derniers mois) ; isDeclared : true, false ou absent pour tous ; sinistres archivés exclus.';

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Tableau de bord'];

  /** A figure over the window: GET /dashboard/<path>?startDate&endDate&isDeclared. */
  const windowRoute = <S extends z.ZodType>(path: string, summary: string, response: S, compute: (db: Database, ctx: AuthContext, q: service.WindowQuery) => Promise<z.infer<S>>) =>
    app.get(
      `/dashboard/${path}`,
      { config: { access: { roles: EVERY_ROLE, scope: 'organization' } }, schema: { tags, summary, description: WINDOW_HELP, querystring: DashboardWindowQuerySchema, response: { 200: response as z.ZodType, ...errorResponses(400, 401, 403) } } },
      async (request) => compute(app.db, request.ctx, request.query),
    );

  windowRoute('loss-ratio', 'S/P : coût des sinistres sur primes acquises (au prorata des jours de chaque période)', LossRatioSchema, service.lossRatio);
  windowRoute('claims-by-month', 'Nombre et coût des sinistres par mois de la fenêtre', MonthlyClaimsSchema, service.monthly);
  windowRoute('claims-by-guarantee', 'Nombre et coût des sinistres par garantie', ClaimsByGuaranteeSchema, service.byGuarantee);
  windowRoute('claims-by-responsibility', 'Nombre et coût des sinistres par responsabilité (responsable, partagée, non responsable, inconnue)', ClaimsByResponsibilitySchema, service.byResponsibility);
  windowRoute('claims-by-category', 'Nombre et coût des sinistres par catégorie de véhicule', ClaimsByCategorySchema, service.byCategory);
  windowRoute('top-drivers', 'Conducteurs ayant le plus de sinistres responsables sur les 12 mois finissant à endDate', TopDriversSchema, service.topDrivers);
  windowRoute('fleet-size', 'Taille du parc au premier jour, à chaque fin de mois et au dernier jour de la fenêtre', FleetSizeSchema, service.fleetSize);

  app.get(
    '/dashboard/claim-frequency',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: 'Fréquence : sinistres de la période sur son nombre de véhicules (période en cours par défaut)',
        querystring: ClaimFrequencyQuerySchema,
        response: { 200: ClaimFrequencySchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => service.claimFrequency(app.db, request.ctx, request.query),
  );
  app.get(
    '/dashboard/half-differences',
    { config: { access: { roles: EVERY_ROLE, scope: 'organization' } }, schema: { tags, summary: 'Demi-différence de chaque période, de la plus récente à la plus ancienne', response: { 200: HalfDifferenceListSchema, ...errorResponses(401, 403) } } },
    async (request) => service.halfDifferences(app.db, request.ctx),
  );
  app.get(
    '/dashboard/current-half-difference',
    { config: { access: { roles: EVERY_ROLE, scope: 'organization' } }, schema: { tags, summary: 'Demi-différence de la période en cours (parc compté aujourd’hui), ou null', response: { 200: CurrentHalfDifferenceSchema, ...errorResponses(401, 403) } } },
    async (request) => service.currentHalfDifference(app.db, request.ctx),
  );
  app.get(
    '/dashboard/config',
    { config: { access: { roles: EVERY_ROLE, scope: 'organization' } }, schema: { tags, summary: 'Limites du tableau de bord (S/P et fréquence, en %)', response: { 200: DashboardConfigSchema, ...errorResponses(401, 403) } } },
    async (request) => service.config(app.db, request.ctx),
  );
  app.put(
    '/dashboard/config',
    {
      config: { access: { roles: ADMINS, scope: 'organization' } },
      schema: {
        tags,
        summary: 'Modifie les limites du tableau de bord (administrateurs)',
        body: UpdateDashboardConfigBodySchema,
        response: { 200: DashboardConfigSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => service.updateConfig(app.db, request.ctx, request.body),
  );
};
