import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { cleanFileName, formatFileSize, formatPlate, type Sinister, SINISTER_STATUS_LABELS, splitExtension } from '@flotte/contract';
import { ZipArchive } from 'archiver';
import type { Database } from '../../db/client.js';
import type { AuthContext } from '../../lib/auth-context.js';
import { openStoredFile } from '../../platform/storage/files.js';
import type { ObjectStorage } from '../../platform/storage/storage.js';
import { organizationTitle } from '../dashboard/renewal-report.service.js';
import { NOT_SET, reportDate, reportEuros, ReportWriter } from '../dashboard/renewal-report.pdf.js';
import { entityFiles } from '../documents/documents.service.js';
import * as sinisters from './sinisters.service.js';

/**
 * The claim pack (issue 14): one ZIP for the insurer holding a PDF summary of the claim and every
 * file attached to it, streamed as it is written (each file read from the storage in turn).
 */

type PackFile = Awaited<ReturnType<typeof entityFiles>>[number];

export const SUMMARY_NAME = 'Résumé du sinistre.pdf';
export const FILES_FOLDER = 'Pièces jointes';

const yesNo = (value: boolean) => (value ? 'Oui' : 'Non');
const reference = (claim: Sinister) => claim.sinisterIntermediateRef?.trim() || null;

/** `Sinistre-<référence>-<date>.zip`, or `Sinistre-<date>.zip` without a reference (a « / » of the reference becomes « - »). */
export function packFileName(claim: Sinister): string {
  const ref = reference(claim);
  return cleanFileName(`Sinistre-${ref ? `${ref.replace(/[/\\]/g, '-')}-` : ''}${claim.sinisterDate}.zip`);
}

/** Names inside the ZIP, each once: files moved to different folders of the GED may share one. */
function uniqueNames(files: PackFile[]): string[] {
  const used = new Set<string>([SUMMARY_NAME.toLowerCase()]);
  return files.map(({ name }) => {
    const { base, extension } = splitExtension(name);
    let candidate = name;
    for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${base} (${n})${extension}`;
    used.add(candidate.toLowerCase());
    return candidate;
  });
}

export function renderClaimSummary(claim: Sinister, files: PackFile[], organization: string, issuedOn: string): Readable {
  const ref = reference(claim);
  const title = `Sinistre ${ref ?? `du ${reportDate(claim.sinisterDate)}`}`;
  const writer = new ReportWriter({ title: `${title} — ${organization}`, subject: 'Résumé de sinistre', footer: `${title} · ${organization} · édité le ${reportDate(issuedOn)}` });
  return writer.render(async (w) => {
    const { doc } = w;
    doc.font('Helvetica-Bold').fontSize(18).text(title, { width: w.width });
    doc.font('Helvetica').fontSize(10).text(`${organization || NOT_SET} · édité le ${reportDate(issuedOn)}`, { width: w.width }).moveDown(0.8);
    const vehicule = claim.vehicule;
    const pairs = (values: [string, string | null][]): [string, string][] => values.map(([label, value]) => [label, value || NOT_SET]);
    w.pairs(
      'Le sinistre',
      pairs([
        ['Référence', ref],
        ['Date', reportDate(claim.sinisterDate)],
        ['Ville', claim.city],
        ['Garantie', claim.guarantee?.label ?? null],
        ['Responsabilité', claim.responsibilityRate === null ? null : `${claim.responsibilityRate}\u00a0%`],
        ['Déclaré', yesNo(claim.isDeclared)],
        ['IDA', yesNo(claim.ida)],
        ['Blessés', yesNo(claim.hasHumanInjury)],
        ['Tiers impliqué', yesNo(claim.isThirdImplicated)],
        ['Véhicule endommagé', yesNo(claim.damagedVehicule)],
      ]),
    );
    w.pairs(
      'Véhicule et conducteur',
      pairs([
        ['Immatriculation', claim.immatriculation ? formatPlate(claim.immatriculation) : null],
        ['Véhicule', vehicule ? [vehicule.brand, vehicule.model].filter(Boolean).join(' ') : null],
        ['Conducteur', claim.driver ? `${claim.driver.firstName} ${claim.driver.lastName}` : null],
      ]),
    );
    w.pairs(
      'Suivi',
      pairs([
        ['Statut', SINISTER_STATUS_LABELS[claim.status]],
        ['Ouvert le', claim.openedAt && reportDate(claim.openedAt)],
        ['Clos le', claim.closedAt && reportDate(claim.closedAt)],
        ['Coût total', reportEuros(claim.totalCost)],
        ['Réglé', reportEuros(claim.paidAmount)],
        ['Provision', reportEuros(claim.reserveAmount)],
      ]),
    );
    if (claim.description) {
      w.heading('Circonstances');
      doc.font('Helvetica').fontSize(9.5).text(claim.description, { width: w.width });
    }
    w.heading('Pièces jointes');
    if (files.length === 0) w.note('Aucune pièce jointe.');
    else
      await w.table(
        [
          { title: 'Fichier', width: w.width - 90, value: (file: PackFile) => file.name },
          { title: 'Taille', width: 90, align: 'right', value: (file: PackFile) => formatFileSize(file.size) },
        ],
        files,
      );
  });
}

/**
 * The pack of a claim of the caller's organization (404 otherwise): its name and the ZIP's stream.
 * The claim and its files are read before the first byte is sent; a storage failure midway ends the
 * stream with an error (the client sees a broken download, never a ZIP missing a file silently).
 */
export async function claimPack(deps: { db: Database; storage: ObjectStorage }, ctx: AuthContext, uuid: string, issuedOn: string) {
  const claim = await sinisters.getOne(deps.db, ctx, uuid);
  const files = await entityFiles(deps.db, ctx, { type: 'sinister', uuid });
  const organization = await organizationTitle(deps.db, ctx);
  const names = uniqueNames(files);
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const write = async () => {
    const entry = (stream: Readable, name: string) => {
      const done = once(zip, 'entry');
      zip.append(stream, { name });
      return done;
    };
    await entry(renderClaimSummary(claim, files, organization, issuedOn), SUMMARY_NAME);
    for (const [i, file] of files.entries()) {
      // One file open at a time: the next is opened once the previous one is in the ZIP.
      const object = await openStoredFile(deps.storage, file.fileKey);
      await entry(object.body as Readable, `${FILES_FOLDER}/${names[i]}`);
    }
    await zip.finalize();
  };
  write().catch((error: unknown) => zip.destroy(error instanceof Error ? error : new Error(String(error))));
  return { name: packFileName(claim), stream: zip as unknown as Readable };
}
