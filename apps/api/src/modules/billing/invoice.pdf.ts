import PDFDocument from 'pdfkit';
import { reportEuros, winAnsiSafe } from '../dashboard/renewal-report.pdf.js';

export type InvoicePdfData = {
  number: string;
  organizationTitle: string;
  planName: string | null;
  issuedAt: Date;
  periodStart: Date | null;
  periodEnd: Date | null;
  amountHtCents: number;
  amountTtcCents: number;
  status: string;
};

const day = (date: Date) => new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', day: '2-digit', month: '2-digit', year: 'numeric' }).format(date);

/** An embedded provider's invoice (decision 044), drawn with pdfkit as the renewal report: A4, standard fonts. */
export function invoicePdf(data: InvoicePdfData): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: `Facture ${data.number}`, Author: 'FlotteAssur' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.font('Helvetica-Bold').fontSize(20).text(winAnsiSafe(`Facture ${data.number}`));
  doc.moveDown(0.5).font('Helvetica').fontSize(11).text(winAnsiSafe(`Émise le ${day(data.issuedAt)} — ${data.status === 'paid' ? 'payée' : 'à payer'}`));
  doc.moveDown().text(winAnsiSafe(`Client : ${data.organizationTitle}`));
  doc.text(winAnsiSafe(`Abonnement FlotteAssur${data.planName ? ` ${data.planName}` : ''}`));
  if (data.periodStart && data.periodEnd) doc.text(winAnsiSafe(`Période du ${day(data.periodStart)} au ${day(data.periodEnd)}`));
  doc.moveDown();
  const vat = data.amountTtcCents - data.amountHtCents;
  for (const [label, cents, bold] of [
    ['Montant HT', data.amountHtCents, false],
    ['TVA (20 %)', vat, false],
    ['Montant TTC', data.amountTtcCents, true],
  ] as const) {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').text(winAnsiSafe(`${label} : ${reportEuros(cents / 100)}`));
  }
  doc.moveDown().font('Helvetica').fontSize(9).fillColor('#555555').text(winAnsiSafe('Facture du fournisseur de paiement intégré : aucun prestataire de paiement n’est configuré.'));
  doc.end();
  return done;
}
