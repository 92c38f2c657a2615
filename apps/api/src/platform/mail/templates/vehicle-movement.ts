import { z } from 'zod';
import { button, defineTemplate, facts, formatFrenchDate, note, paragraph, strong } from '../render.js';

const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/**
 * Insurance follow-up: the organization's intermediary (its production e-mail) is told that a
 * vehicle entered or left the fleet, so that the contract follows the fleet. Archiving a vehicle
 * sets its exit date without this message (SPEC §4).
 */
export const vehicleMovement = defineTemplate({
  schema: z.object({
    movement: z.enum(['entry', 'exit']),
    organizationTitle: z.string().trim().min(1).max(200),
    intermediaryContactName: z.string().trim().max(200).nullable(),
    /** As shown: AB-123-CD. */
    immatriculation: z.string().trim().min(1).max(20),
    brand: z.string().trim().max(100).nullable(),
    model: z.string().trim().max(100).nullable(),
    date: IsoDate,
    senderName: z.string().trim().min(1).max(200),
  }),
  render(data, { brand, url }) {
    const entry = data.movement === 'entry';
    const vehicle = [data.brand, data.model].filter(Boolean).join(' ');
    const rows: [string, string][] = [
      ['Société', data.organizationTitle],
      ['Immatriculation', data.immatriculation],
      ...(vehicle ? ([['Véhicule', vehicle]] as [string, string][]) : []),
      [entry ? "Date d'entrée" : 'Date de sortie', formatFrenchDate(data.date)],
    ];
    return {
      subject: `${entry ? 'Entrée' : 'Sortie'} de flotte : ${data.immatriculation} (${data.organizationTitle})`,
      heading: entry ? 'Un véhicule entre dans la flotte' : 'Un véhicule sort de la flotte',
      blocks: [
        paragraph(data.intermediaryContactName ? `Bonjour ${data.intermediaryContactName},` : 'Bonjour,'),
        paragraph(
          strong(data.senderName),
          ` vous informe que le véhicule `,
          strong(data.immatriculation),
          entry ? ' entre dans la flotte de ' : ' sort de la flotte de ',
          strong(data.organizationTitle),
          ` le ${formatFrenchDate(data.date)}.`,
        ),
        facts(rows),
        paragraph(entry ? "Merci de l'ajouter au contrat d'assurance de la flotte." : "Merci de le retirer du contrat d'assurance de la flotte."),
        button(`Ouvrir ${brand.name}`, url('/vehicules')),
        note(`Vous recevez ce message en tant qu'intermédiaire d'assurance de ${data.organizationTitle}.`),
      ],
    };
  },
});
