import { z } from 'zod';
import { type Block, button, defineTemplate, formatFrenchDate, note, paragraph, strong } from '../render.js';

const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const ExpiringDocumentSchema = z.object({
  name: z.string().trim().min(1).max(255),
  /** The folder holding it (« Mes documents » at the root). */
  folder: z.string().trim().min(1).max(255),
  expiresOn: IsoDate,
});
type ExpiringDocument = z.infer<typeof ExpiringDocumentSchema>;

const plural = (n: number, word: string) => `${n.toLocaleString('fr-FR')} ${word}${n > 1 ? 's' : ''}`;

/** « expiré le 3 novembre 2026 », « expire aujourd’hui », « expire le 3 décembre 2026 ». */
function expiry(expiresOn: string, today: string): string {
  if (expiresOn < today) return `expiré le ${formatFrenchDate(expiresOn)}`;
  if (expiresOn === today) return 'expire aujourd’hui';
  return `expire le ${formatFrenchDate(expiresOn)}`;
}

/** One document of the list: « • Carte verte.pdf (dossier « AB-123-CD ») : expire le 3 décembre 2026 ». */
function line(document: ExpiringDocument, today: string): Block {
  return paragraph('• ', strong(document.name), ` (dossier « ${document.folder} ») : ${expiry(document.expiresOn, today)}`);
}

/**
 * The daily digest of the documents to renew (issue 14, job documents.expiry-notices): each
 * administrator of an organization hears once of each document expired or expiring within 30
 * days, one message listing them all (the first `documents`, all counted in `total`).
 */
export const documentExpiry = defineTemplate({
  schema: z.object({
    organizationTitle: z.string().trim().min(1).max(200),
    firstName: z.string().trim().max(100).nullable(),
    /** Paris date of the run: what is before it has expired. */
    today: IsoDate,
    /** Days ahead the job looks (DOCUMENT_EXPIRY_NOTICE_DAYS). */
    noticeDays: z.number().int().min(0).max(366),
    documents: z.array(ExpiringDocumentSchema).min(1).max(1000),
    /** Every document raised, when `documents` lists only the first of them. */
    total: z.number().int().min(1).optional(),
  }),
  render(data, { brand, url }) {
    const total = Math.max(data.total ?? 0, data.documents.length);
    const expired = data.documents.filter((d) => d.expiresOn < data.today).length;
    const rest = total - data.documents.length;
    const intro =
      total === 1
        ? `Un document de ${data.organizationTitle} a expiré ou expire dans les ${data.noticeDays} prochains jours :`
        : `${total.toLocaleString('fr-FR')} documents de ${data.organizationTitle} ont expiré ou expirent dans les ${data.noticeDays} prochains jours :`;
    return {
      subject: `Documents à renouveler : ${plural(total, 'document')} (${data.organizationTitle})`,
      heading: 'Documents à renouveler',
      blocks: [
        paragraph(data.firstName ? `Bonjour ${data.firstName},` : 'Bonjour,'),
        paragraph(intro),
        ...data.documents.map((d) => line(d, data.today)),
        ...(rest > 0 ? [paragraph(`… et ${rest.toLocaleString('fr-FR')} ${rest > 1 ? 'autres documents' : 'autre document'}, à retrouver dans ${brand.name}.`)] : []),
        paragraph(
          expired > 0
            ? 'Pensez à les renouveler, puis à déposer la nouvelle version et sa date d’expiration dans la gestion documentaire.'
            : 'Pensez à les renouveler avant leur expiration, puis à déposer la nouvelle version et sa date d’expiration dans la gestion documentaire.',
        ),
        button('Ouvrir la gestion documentaire', url('/ged')),
        note(`Vous recevez ce message en tant qu’administrateur de ${data.organizationTitle}. Chaque document n’est signalé qu’une fois pour une date d’expiration donnée.`),
      ],
    };
  },
});
