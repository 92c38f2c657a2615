import {
  ALERT_BODY_MAX,
  ALERT_SEVERITIES,
  ALERT_TARGET_ORGANIZATIONS_MAX,
  ALERT_TARGET_RULES,
  ALERT_TITLE_MAX,
  AUTOMATIC_ALERT_RULES,
} from './alert-labels.js';
import { pageSchema, PaginationQuerySchema, QueryBooleanSchema } from './common.js';
import { requiredText, text, UuidSchema } from './primitives.js';
import { z } from './zod.js';

/**
 * Prevention alerts (issue 16, decision 037): the broker's written alerts (a superadmin of an
 * environment writes them for its client organizations) and the product's automatic ones, both
 * read by the members of an organization on /alerts.
 */

export const AlertSeveritySchema = z.enum(ALERT_SEVERITIES, { error: 'Gravité : information, attention ou urgent' });
export const AutomaticAlertRuleSchema = z.enum(AUTOMATIC_ALERT_RULES);
export const AlertTargetRuleSchema = z.enum(ALERT_TARGET_RULES, { error: 'Règle de ciblage inconnue' });

/** Who a written alert goes to: every organization of the environment, chosen ones, or those a rule matches when it is written. */
export const AlertTargetSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('all') }),
    z.strictObject({
      kind: z.literal('organizations'),
      organizations: z
        .array(UuidSchema, { error: 'Liste des organisations attendue' })
        .min(1, { error: 'Choisissez au moins une organisation' })
        .max(ALERT_TARGET_ORGANIZATIONS_MAX, { error: `${ALERT_TARGET_ORGANIZATIONS_MAX} organisations au plus` }),
    }),
    z.strictObject({ kind: z.literal('rule'), rule: AlertTargetRuleSchema }),
  ],
  { error: 'Destinataires : all, organizations ou rule' },
);
export type AlertTarget = z.infer<typeof AlertTargetSchema>;

/** POST /api/environment/{uuid}/alert: a written alert, published now or at `publishAt`. */
export const CreatePreventionAlertBodySchema = z.strictObject({
  title: requiredText(ALERT_TITLE_MAX, 'Le titre'),
  /** Markdown, rendered safely (no HTML) on /alerts. */
  body: text({ max: ALERT_BODY_MAX, label: 'Le message', missing: 'Le message est obligatoire' }).refine((v) => v.length > 0, { error: 'Le message est obligatoire' }),
  severity: AlertSeveritySchema,
  target: AlertTargetSchema,
  /** Publication date (ISO 8601 with offset); now when absent or past. */
  publishAt: z.iso.datetime({ offset: true, error: 'Date de publication invalide' }).max(40, { error: 'Date de publication invalide' }).nullable().optional(),
});
export type CreatePreventionAlertBody = z.input<typeof CreatePreventionAlertBodySchema>;

export const EnvironmentAlertParamsSchema = z.object({ uuid: UuidSchema, alertUuid: UuidSchema });

const PersonSchema = z.object({ uuid: z.uuid(), firstName: z.string(), lastName: z.string(), email: z.string() });

/** A written alert as its environment's superadmins see it. */
export const PreventionAlertSchema = z.object({
  uuid: z.uuid(),
  title: z.string(),
  body: z.string(),
  severity: AlertSeveritySchema,
  targetKind: z.enum(['all', 'organizations', 'rule']),
  targetRule: AlertTargetRuleSchema.nullable(),
  publishAt: z.string(),
  createdAt: z.string(),
  author: PersonSchema.nullable(),
  /** Organizations it was sent to. */
  organizations: z.number().int(),
  /** Of them, those where at least one member read it. */
  organizationsRead: z.number().int(),
  /** Members who read it. */
  readers: z.number().int(),
});
export type PreventionAlert = z.infer<typeof PreventionAlertSchema>;
export const PreventionAlertListSchema = z.object({ data: z.array(PreventionAlertSchema) });

/** One written alert with who read it, organization by organization. */
export const PreventionAlertDetailSchema = PreventionAlertSchema.extend({
  recipients: z.array(
    z.object({
      organization: z.object({ uuid: z.uuid(), title: z.string() }),
      readers: z.array(PersonSchema.extend({ readAt: z.string() })),
    }),
  ),
});
export type PreventionAlertDetail = z.infer<typeof PreventionAlertDetailSchema>;

/** An alert of the current organization, as its members see it on /alerts. */
export const AlertSchema = z.object({
  uuid: z.uuid(),
  source: z.enum(['written', 'automatic']),
  /** The automatic rule that raised it; null for a written alert. */
  rule: AutomaticAlertRuleSchema.nullable(),
  severity: AlertSeveritySchema,
  title: z.string(),
  /** Markdown for a written alert; the reason, plain French, for an automatic one. */
  body: z.string(),
  /** Where the claims, vehicles or documents behind it are listed (a path of the app). */
  link: z.object({ href: z.string(), label: z.string() }).nullable(),
  publishedAt: z.string(),
  /** An automatic alert whose cause went away; null while it stands. */
  closedAt: z.string().nullable(),
  /** Read by the current user. */
  read: z.boolean(),
});
export type Alert = z.infer<typeof AlertSchema>;

export const ListAlertsQuerySchema = PaginationQuerySchema.extend({
  severity: AlertSeveritySchema.optional(),
  /** Only the alerts the user has not read. */
  unread: QueryBooleanSchema,
});
export type ListAlertsQuery = z.input<typeof ListAlertsQuerySchema>;
export const AlertPageSchema = pageSchema(AlertSchema);
export type AlertPage = z.infer<typeof AlertPageSchema>;

export const UnreadAlertsSchema = z.object({ count: z.number().int() });
export type UnreadAlerts = z.infer<typeof UnreadAlertsSchema>;

/** The daily digest of the clients' new automatic alerts, per superadmin and environment (on unless turned off). */
export const AlertDigestSettingSchema = z.object({ enabled: z.boolean() });
export const UpdateAlertDigestBodySchema = z.strictObject({ enabled: z.boolean({ error: 'Valeur attendue : oui ou non' }) });
export type AlertDigestSetting = z.infer<typeof AlertDigestSettingSchema>;
