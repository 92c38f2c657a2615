import { z } from 'zod';
import { type Block, button, defineTemplate, facts, formatFrenchDate, note, paragraph, strong } from '../render.js';

const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const MovementSchema = z.object({
  movement: z.enum(['entry', 'exit']),
  /** As shown: AB-123-CD. */
  immatriculation: z.string().trim().min(1).max(20),
  brand: z.string().trim().max(100).nullable(),
  model: z.string().trim().max(100).nullable(),
  /** The category's French label ('Véhicule utilitaire léger'…). */
  category: z.string().trim().max(100).nullable(),
  date: IsoDate,
});
type Movement = z.infer<typeof MovementSchema>;

const vehicleOf = (m: Movement) => [m.brand, m.model].filter(Boolean).join(' ');
const verb = (m: Movement) => (m.movement === 'entry' ? 'entrée' : 'sortie');
const plural = (n: number, word: string) => `${n.toLocaleString('fr-FR')} ${word}${n > 1 ? 's' : ''}`;

/** One vehicle of a list: « AB-123-CD — Renault Master, VUL (véhicule utilitaire léger) : entrée le 3 mars 2026 » (« … annulée »). */
function line(m: Movement, cancelled: boolean): Block {
  // The category's label may hold parentheses itself ('VP (véhicule particulier)'): after a comma.
  const details = [vehicleOf(m), m.category].filter(Boolean).join(', ');
  return paragraph('• ', strong(m.immatriculation), details ? ` — ${details}` : '', ` : ${verb(m)} le ${formatFrenchDate(m.date)}${cancelled ? ' annulée' : ''}`);
}

/**
 * Insurance follow-up: the organization's intermediary (its production e-mail) is told that
 * vehicles entered or left the fleet, so that the contract follows the fleet (the half-difference,
 * DOMAIN.md). One change of many vehicles is one message listing them. Archiving a vehicle sets
 * its exit date without this message (SPEC §4). A large change lists its first movements and counts
 * them all (`total`); an import undone tells the same intermediary its movements are cancelled.
 */
export const vehicleMovement = defineTemplate({
  schema: z.object({
    organizationTitle: z.string().trim().min(1).max(200),
    intermediaryContactName: z.string().trim().max(200).nullable(),
    senderName: z.string().trim().min(1).max(200),
    movements: z.array(MovementSchema).min(1).max(1000),
    /** Every movement, when `movements` lists only the first of them. */
    total: z.object({ entries: z.number().int().min(0), exits: z.number().int().min(0) }).optional(),
    /** The movements, told before, are cancelled (an import undone). */
    cancelled: z.boolean().optional(),
  }),
  render(data, { brand, url }) {
    const hello = paragraph(data.intermediaryContactName ? `Bonjour ${data.intermediaryContactName},` : 'Bonjour,');
    const open = button(`Ouvrir ${brand.name}`, url('/vehicules'));
    const why = note(`Vous recevez ce message en tant qu'intermédiaire d'assurance de ${data.organizationTitle}.`);
    const listedEntries = data.movements.filter((m) => m.movement === 'entry').length;
    const entries = data.total?.entries ?? listedEntries;
    const exits = data.total?.exits ?? data.movements.length - listedEntries;
    const cancelled = data.cancelled === true;
    if (entries + exits === 1 && !cancelled) {
      const m = data.movements[0]!;
      const entry = m.movement === 'entry';
      const vehicle = vehicleOf(m);
      const rows: [string, string][] = [
        ['Société', data.organizationTitle],
        ['Immatriculation', m.immatriculation],
        ...(vehicle ? ([['Véhicule', vehicle]] as [string, string][]) : []),
        ...(m.category ? ([['Catégorie', m.category]] as [string, string][]) : []),
        [entry ? "Date d'entrée" : 'Date de sortie', formatFrenchDate(m.date)],
      ];
      return {
        subject: `${entry ? 'Entrée' : 'Sortie'} de flotte : ${m.immatriculation} (${data.organizationTitle})`,
        heading: entry ? 'Un véhicule entre dans la flotte' : 'Un véhicule sort de la flotte',
        blocks: [
          hello,
          paragraph(
            strong(data.senderName),
            ` vous informe que le véhicule `,
            strong(m.immatriculation),
            entry ? ' entre dans la flotte de ' : ' sort de la flotte de ',
            strong(data.organizationTitle),
            ` le ${formatFrenchDate(m.date)}.`,
          ),
          facts(rows),
          paragraph(entry ? "Merci de l'ajouter au contrat d'assurance de la flotte." : "Merci de le retirer du contrat d'assurance de la flotte."),
          open,
          why,
        ],
      };
    }
    const counts = [entries ? plural(entries, 'entrée') : '', exits ? plural(exits, 'sortie') : ''].filter(Boolean).join(' et ');
    const rest = entries + exits - data.movements.length;
    const more = rest > 0 ? [paragraph(`… et ${rest.toLocaleString('fr-FR')} ${rest > 1 ? 'autres mouvements' : 'autre mouvement'}, à retrouver dans ${brand.name}.`)] : [];
    if (cancelled) {
      return {
        subject: `Annulation de mouvements de flotte : ${counts} (${data.organizationTitle})`,
        heading: 'Des mouvements de flotte sont annulés',
        blocks: [
          hello,
          paragraph(strong(data.senderName), ` vous informe que les mouvements suivants de la flotte de `, strong(data.organizationTitle), `, signalés précédemment, sont annulés (${counts}) :`),
          ...data.movements.map((m) => line(m, true)),
          ...more,
          paragraph("Merci de ne pas en tenir compte dans le contrat d'assurance de la flotte."),
          open,
          why,
        ],
      };
    }
    return {
      subject: `Mouvements de flotte : ${counts} (${data.organizationTitle})`,
      heading: `${(entries + exits).toLocaleString('fr-FR')} véhicules entrent ou sortent de la flotte`,
      blocks: [
        hello,
        paragraph(strong(data.senderName), ` vous informe des mouvements suivants dans la flotte de `, strong(data.organizationTitle), ` (${counts}) :`),
        ...data.movements.map((m) => line(m, false)),
        ...more,
        paragraph("Merci de mettre à jour le contrat d'assurance de la flotte en conséquence."),
        open,
        why,
      ],
    };
  },
});
