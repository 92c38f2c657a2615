import { TotpCodeBodySchema, TotpDisableBodySchema, TotpRecoveryCodesSchema, TotpSetupSchema, TotpStatusSchema } from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.js';
import type { AuthService } from './auth.service.js';
import type { TotpService } from './totp.service.js';
import { EVERY_ROLE } from '../../plugins/route-access.js';

/** The account page's two-factor sign-in (decision 035): the caller's own, nobody else's. */
export const totpRoutes: FastifyPluginAsyncZod<{ auth: AuthService; totp: TotpService }> = async (app, { auth, totp }) => {
  const tags = ['Authentification'];

  app.get(
    '/auth/totp',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags,
        summary: 'Double authentification du compte : activée ou non, codes de secours restants, exigée par l’espace',
        response: { 200: TotpStatusSchema, ...errorResponses(401) },
      },
    },
    (request) => totp.status(request.ctx.userUuid),
  );

  app.post(
    '/auth/totp/setup',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags,
        summary: 'Commence l’activation : une nouvelle clé à scanner (QR code SVG et texte), en attente du premier code',
        response: { 200: TotpSetupSchema, ...errorResponses(401, 409) },
      },
    },
    (request) => totp.startSetup(request.ctx.userUuid),
  );

  app.post(
    '/auth/totp/enable',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags,
        summary: 'Termine l’activation avec un code de l’application : donne les dix codes de secours, une seule fois',
        body: TotpCodeBodySchema,
        response: { 200: TotpRecoveryCodesSchema, ...errorResponses(400, 401, 409, 429) },
      },
    },
    async (request) => ({ recoveryCodes: await totp.enable(request.ctx.userUuid, request.body.code, request.ip) }),
  );

  app.post(
    '/auth/totp/recovery-codes',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags,
        summary: 'Nouveaux codes de secours (avec un code de l’application) : les anciens ne servent plus',
        body: TotpCodeBodySchema,
        response: { 200: TotpRecoveryCodesSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => ({ recoveryCodes: await totp.regenerateRecoveryCodes(request.ctx.userUuid, request.body.code, request.ip) }),
  );

  app.post(
    '/auth/totp/disable',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags,
        summary: 'Désactive la double authentification (mot de passe actuel et un code, ou un code de secours)',
        description: 'Refusé à un superadministrateur dont l’espace l’exige. Les navigateurs mémorisés et les codes de secours sont oubliés.',
        body: TotpDisableBodySchema,
        response: { 204: z.null().meta({ description: 'Désactivée' }), ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      await auth.checkOwnPassword(request.ctx, request.body.password, request.ip, 'password');
      await totp.disable(request.ctx.userUuid, request.body, request.ip);
      return reply.status(204).send(null);
    },
  );
};
