import { z } from 'zod';
import { type Block, button, defineTemplate, note, paragraph, strong } from '../render.js';

const DigestOrganizationSchema = z.object({
  title: z.string().trim().min(1).max(200),
  /** The titles of its new alerts (the first ones; `total` counts them all). */
  alerts: z.array(z.string().trim().min(1).max(300)).min(1).max(50),
  total: z.number().int().min(1),
});

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('fr-FR')} ${n > 1 ? many : one}`;

/**
 * The broker's daily digest (issue 16, job alerts.digest, decision 037): each superadmin of an
 * environment who did not turn it off hears once of the automatic prevention alerts raised in its
 * client organizations since the previous digest, organization by organization.
 */
export const alertsDigest = defineTemplate({
  schema: z.object({
    environmentTitle: z.string().trim().min(1).max(200),
    firstName: z.string().trim().max(100).nullable(),
    organizations: z.array(DigestOrganizationSchema).min(1).max(500),
    /** Organizations with new alerts, when `organizations` lists only the first of them. */
    totalOrganizations: z.number().int().min(1).optional(),
  }),
  render(data, { url }) {
    const alerts = data.organizations.reduce((sum, o) => sum + o.total, 0);
    const organizations = Math.max(data.totalOrganizations ?? 0, data.organizations.length);
    const blocks: Block[] = [
      paragraph(data.firstName ? `Bonjour ${data.firstName},` : 'Bonjour,'),
      paragraph(`Depuis le dernier récapitulatif, ${plural(alerts, 'nouvelle alerte de prévention', 'nouvelles alertes de prévention')} ${alerts > 1 ? 'ont été levées' : 'a été levée'} chez ${plural(organizations, 'client', 'clients')} de ${data.environmentTitle} :`),
    ];
    for (const organization of data.organizations) {
      blocks.push(paragraph(strong(organization.title), ` : ${plural(organization.total, 'alerte', 'alertes')}`));
      for (const title of organization.alerts) blocks.push(paragraph(`• ${title}`));
      const rest = organization.total - organization.alerts.length;
      if (rest > 0) blocks.push(paragraph(`… et ${plural(rest, 'autre alerte', 'autres alertes')}.`));
    }
    if (organizations > data.organizations.length) {
      const rest = organizations - data.organizations.length;
      blocks.push(paragraph(`… et ${plural(rest, 'autre client', 'autres clients')}.`));
    }
    blocks.push(button('Ouvrir la gestion des alertes', url('/superadmin/alerts')));
    blocks.push(note(`Vous recevez ce récapitulatif quotidien en tant que superadmin de ${data.environmentTitle}. Vous pouvez le désactiver dans vos paramètres.`));
    return {
      subject: `Alertes de prévention : ${plural(alerts, 'nouvelle alerte', 'nouvelles alertes')} chez vos clients`,
      heading: 'Nouvelles alertes de prévention',
      blocks,
    };
  },
});
