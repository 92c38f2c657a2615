import { formatPlate, SINISTER_STATUS_LABELS, vehiculeTypeLabel } from '@flotte/contract';
import PDFDocument from 'pdfkit';
import type { Readable } from 'node:stream';
import type { RenewalReportData } from './renewal-report.service.js';

/*
 * The renewal report, drawn with pdfkit (decision 025): A4 portrait, the PDF standard fonts
 * (Helvetica in WinAnsi holds é è à ç œ € « » ’), vector drawing only. French throughout.
 */

// ---------------------------------------------------------------------------------------------
// French formatting. Intl's fr-FR uses U+202F (narrow no-break space) for thousands and before
// « % », a character WinAnsi lacks: it becomes U+00A0, which the standard fonts have.
// ---------------------------------------------------------------------------------------------

const NBSP = '\u00a0';
const winAnsi = (text: string) => text.replace(/[\u202f\u2009]/g, NBSP);

/** The characters of WinAnsiEncoding besides ASCII and Latin-1: what the standard fonts can draw. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const LOOKALIKES: Record<string, string> = { '≤': '<=', '≥': '>=', '−': '-', '‐': '-', '‑': '-', '\u202f': NBSP, '\u2009': NBSP, '\u2007': NBSP, '′': '’', '″': '”' };

/**
 * Text the PDF's standard fonts can draw: composed accents, the few look-alikes above, and « ? »
 * for anything else (another script, an emoji), rather than a wrong glyph.
 */
export function winAnsiSafe(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else if (ch === '\n') out += ch;
    else out += LOOKALIKES[ch] ?? '?';
  }
  return out;
}
let euroFormat: Intl.NumberFormat | undefined;
let countFormat: Intl.NumberFormat | undefined;
let decimalFormat: Intl.NumberFormat | undefined;

/** 1 234,56 € */
export function reportEuros(amount: number): string {
  euroFormat ??= new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
  return winAnsi(euroFormat.format(amount));
}
/** 1 234 */
export function reportCount(n: number): string {
  countFormat ??= new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });
  return winAnsi(countFormat.format(n));
}
/** 65,3 % (one decimal, as the dashboard screen rounds); « — » when there is no ratio. */
export function reportPercent(value: number | null): string {
  if (value === null) return '—';
  decimalFormat ??= new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return `${winAnsi(decimalFormat.format(value))}${NBSP}%`;
}
/** +0,5 or −1 (vehicles, halves shown). */
export function reportSignedHalf(value: number): string {
  const text = winAnsi(new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 }).format(Math.abs(value)));
  return value > 0 ? `+${text}` : value < 0 ? `-${text}` : text;
}
/** 2026-03-15 → 15/03/2026 */
export function reportDate(iso: string): string {
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
}
const MONTHS = ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'];
const monthLabel = (month: string) => `${MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(2, 4)}`;

export const RESPONSIBILITY_LABELS = { atFault: 'Responsable (100 %)', shared: 'Partagée (25 à 75 %)', notAtFault: 'Non responsable (0 %)', unknown: 'Non renseignée' } as const;
export const NOT_SET = 'Non renseigné';

/** Green below, orange within 10 points, red above (DOMAIN.md, limits). */
export function limitStatus(value: number | null, limit: number): { label: string; color: string } {
  if (value === null) return { label: 'Non calculable', color: GREY };
  if (value > limit) return { label: 'Au-dessus de la limite', color: '#c62828' };
  if (value >= limit - 10) return { label: 'Proche de la limite', color: '#e65100' };
  return { label: 'Sous la limite', color: '#2e7d32' };
}

export function declaredLabel(isDeclared: boolean | undefined): string {
  return isDeclared === undefined ? 'tous les sinistres (déclarés et non déclarés)' : isDeclared ? 'sinistres déclarés uniquement' : 'sinistres non déclarés uniquement';
}

// ---------------------------------------------------------------------------------------------
// Drawing
// ---------------------------------------------------------------------------------------------

const INK = '#1a2233';
const GREY = '#5f6b7a';
const LINE = '#d5dae1';
const BRAND = '#1565c0';
const ACCENT = '#ef6c00';
const MARGIN = 48;
const FOOTER = 30;

type Doc = PDFKit.PDFDocument;
type ChartPoint = { label: string; claims: number; cost: number };

/** Months for a window up to three years; beyond, one bar per year (a bar would be thinner than a line). */
export const CHART_MONTHS_MAX = 36;
function chartPoints(months: RenewalReportData['monthly']): { byYear: boolean; points: ChartPoint[] } {
  if (months.length <= CHART_MONTHS_MAX) return { byYear: false, points: months.map((m) => ({ label: monthLabel(m.month), claims: m.claims, cost: m.cost })) };
  const years = new Map<string, ChartPoint>();
  for (const m of months) {
    const year = years.get(m.month.slice(0, 4)) ?? { label: m.month.slice(0, 4), claims: 0, cost: 0 };
    year.claims += m.claims;
    year.cost = Math.round((year.cost + m.cost) * 100) / 100;
    years.set(year.label, year);
  }
  return { byYear: true, points: [...years.values()] };
}
export type Column<T> = { title: string; width: number; align?: 'left' | 'right' | 'center'; value: (row: T) => string };

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A report's title and subject (the PDF's properties) and the line at the foot of each page, before its number. */
export type ReportHeader = { title: string; subject: string; footer: string };

/** The reports' A4 pages (decision 025): footer and page numbers, headings, label/value blocks, figures, tables. */
export class ReportWriter {
  readonly doc: Doc;
  private pageNumber = 0;
  private layout: 'portrait' | 'landscape' = 'portrait';

  constructor(private readonly header: ReportHeader) {
    this.doc = new PDFDocument({
      size: 'A4',
      margins: { top: MARGIN, bottom: MARGIN + FOOTER, left: MARGIN, right: MARGIN },
      info: { Title: header.title, Author: 'FlotteAssur', Subject: header.subject, Creator: 'FlotteAssur' },
      lang: 'fr-FR',
      autoFirstPage: false,
    });
    // Every string goes through winAnsiSafe, the organization's and the claims' included.
    const text = this.doc.text.bind(this.doc) as (value: string, ...rest: unknown[]) => Doc;
    this.doc.text = ((value: string, ...rest: unknown[]) => text(winAnsiSafe(String(value)), ...rest)) as Doc['text'];
    this.doc.on('pageAdded', () => this.footer());
    this.newPage();
  }

  /** A new page, in the layout of the last one unless told (the claims list is landscape). */
  newPage(layout = this.layout) {
    this.layout = layout;
    this.doc.addPage({ size: 'A4', layout, margins: { top: MARGIN, bottom: MARGIN + FOOTER, left: MARGIN, right: MARGIN } });
  }

  get width() {
    return this.doc.page.width - 2 * MARGIN;
  }
  private get bottom() {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** Drawn when each page starts: the bottom margin is lifted so that it never adds a page. */
  private footer() {
    const { doc } = this;
    this.pageNumber += 1;
    const { x, y } = doc;
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(7.5)
      .fillColor(GREY)
      .text(this.header.footer, MARGIN,
        doc.page.height - MARGIN,
        { width: this.width - 60, lineBreak: false, ellipsis: true, height: 10 },
      )
      .text(`Page ${this.pageNumber}`, MARGIN + this.width - 60, doc.page.height - MARGIN, { width: 60, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
    doc.x = x;
    doc.y = y;
    doc.fillColor(INK);
  }

  /**
   * The document as a readable stream. pdfkit writes each page as soon as the next one starts, and
   * the long tables yield to the event loop, so the client receives the first pages while the last are drawn.
   */
  render(draw: (writer: this) => Promise<void>): Readable {
    draw(this).then(
      () => this.doc.end(),
      (error: unknown) => this.doc.destroy(error instanceof Error ? error : new Error(String(error))),
    );
    return this.doc;
  }

  /** Starts a new page unless `height` points are left on this one. */
  ensure(height: number) {
    if (this.doc.y + height > this.bottom) this.newPage();
  }

  heading(text: string) {
    this.ensure(60);
    const { doc } = this;
    doc.moveDown(0.6).font('Helvetica-Bold').fontSize(13).fillColor(BRAND).text(text, MARGIN, doc.y, { width: this.width });
    doc
      .moveTo(MARGIN, doc.y + 2)
      .lineTo(MARGIN + this.width, doc.y + 2)
      .lineWidth(0.8)
      .strokeColor(BRAND)
      .stroke();
    doc.moveDown(0.5).fillColor(INK);
  }

  note(text: string) {
    this.doc.font('Helvetica').fontSize(8).fillColor(GREY).text(text, MARGIN, this.doc.y, { width: this.width }).fillColor(INK);
  }

  /** Label / value lines (the cover's blocks). */
  pairs(title: string, pairs: [string, string][] | null) {
    const { doc } = this;
    doc.font('Helvetica-Bold').fontSize(10.5).fillColor(INK).text(title, MARGIN, doc.y, { width: this.width });
    doc.moveDown(0.2);
    if (!pairs) {
      doc.font('Helvetica-Oblique').fontSize(9.5).fillColor(GREY).text(NOT_SET, MARGIN + 10, doc.y, { width: this.width - 10 });
    } else {
      for (const [label, value] of pairs) {
        const y = doc.y;
        doc.font('Helvetica').fontSize(9.5).fillColor(GREY).text(label, MARGIN + 10, y, { width: 130 });
        doc.font('Helvetica').fontSize(9.5).fillColor(INK).text(value, MARGIN + 145, y, { width: this.width - 145 });
      }
    }
    doc.moveDown(0.6).fillColor(INK);
  }

  /** One figure: its value, its limit and where it stands, and how it is computed. */
  figure(title: string, value: string, status: { label: string; color: string } | null, lines: string[]) {
    const { doc } = this;
    const height = 50 + lines.length * 11;
    this.ensure(height + 8);
    const top = doc.y;
    doc.roundedRect(MARGIN, top, this.width, height, 4).lineWidth(0.6).strokeColor(LINE).stroke();
    if (status) doc.rect(MARGIN, top, 4, height).fillColor(status.color).fill();
    doc.font('Helvetica-Bold').fontSize(10).fillColor(GREY).text(title, MARGIN + 14, top + 8, { width: this.width - 170 });
    doc.font('Helvetica-Bold').fontSize(18).fillColor(INK).text(value, MARGIN + 14, top + 22, { width: this.width - 170 });
    if (status) doc.font('Helvetica-Bold').fontSize(9.5).fillColor(status.color).text(status.label, MARGIN + this.width - 160, top + 10, { width: 150, align: 'right' });
    doc.font('Helvetica').fontSize(8.5).fillColor(GREY);
    let y = top + 44;
    for (const line of lines) {
      doc.text(line, MARGIN + 14, y, { width: this.width - 28 });
      y += 11;
    }
    doc.x = MARGIN;
    doc.y = top + height + 8;
    doc.fillColor(INK);
  }

  private tableHeader<T>(columns: Column<T>[]) {
    const { doc } = this;
    const y = doc.y;
    doc.rect(MARGIN, y, this.width, 16).fillColor('#eef2f7').fill();
    let x = MARGIN;
    doc.font('Helvetica-Bold').fontSize(8).fillColor(INK);
    for (const c of columns) {
      doc.text(c.title, x + 3, y + 4.5, { width: c.width - 6, align: c.align ?? 'left', lineBreak: false, ellipsis: true, height: 10 });
      x += c.width;
    }
    doc.x = MARGIN;
    doc.y = y + 16;
  }

  /** A table whose header repeats on each page; a row is one line, cut with « … » when too long. */
  async table<T>(columns: Column<T>[], rows: Iterable<T>, total?: T) {
    const { doc } = this;
    const rowHeight = 14;
    this.ensure(16 + rowHeight * 2);
    this.tableHeader(columns);
    let n = 0;
    const line = (row: T, bold: boolean) => {
      if (doc.y + rowHeight > this.bottom) {
        this.newPage();
        this.tableHeader(columns);
      }
      const y = doc.y;
      if (bold) doc.rect(MARGIN, y, this.width, rowHeight).fillColor('#f6f8fb').fill();
      let x = MARGIN;
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8).fillColor(INK);
      for (const c of columns) {
        doc.text(c.value(row), x + 3, y + 3.5, { width: c.width - 6, align: c.align ?? 'left', lineBreak: false, ellipsis: true, height: 10 });
        x += c.width;
      }
      doc
        .moveTo(MARGIN, y + rowHeight)
        .lineTo(MARGIN + this.width, y + rowHeight)
        .lineWidth(0.4)
        .strokeColor(LINE)
        .stroke();
      doc.x = MARGIN;
      doc.y = y + rowHeight;
    };
    for (const row of rows) {
      line(row, false);
      // Let the written pages flow to the client, and other requests run, on long lists.
      if (++n % 100 === 0) await yieldToEventLoop();
    }
    if (total) line(total, true);
    doc.moveDown(0.8);
  }

  /** Bars for the cost of each month (left axis, euros), dots joined by a line for their count (right axis). */
  barChart(months: ChartPoint[]) {
    const { doc } = this;
    const height = 190;
    this.ensure(height + 40);
    const top = doc.y + 6;
    const left = MARGIN + 58;
    const right = MARGIN + this.width - 30;
    const plotTop = top + 10;
    const plotBottom = top + height - 28;
    const plotHeight = plotBottom - plotTop;
    const maxCost = Math.max(...months.map((m) => m.cost), 0);
    const maxClaims = Math.max(...months.map((m) => m.claims), 0);
    const costTop = niceCeiling(maxCost);
    // Whole claims on each of the four steps of the right axis.
    const claimsTop = Math.max(Math.ceil(maxClaims / 4) * 4, 4);
    // Axes and grid: five steps on each side.
    doc.font('Helvetica').fontSize(7).lineWidth(0.4);
    for (let i = 0; i <= 4; i++) {
      const y = plotBottom - (plotHeight * i) / 4;
      doc.moveTo(left, y).lineTo(right, y).strokeColor(LINE).stroke();
      doc.fillColor(GREY).text(reportEuros((costTop * i) / 4).replace(/,00/, ''), MARGIN - 4, y - 3, { width: left - MARGIN, align: 'right', lineBreak: false });
      doc.fillColor(ACCENT).text(reportCount((claimsTop * i) / 4), right + 4, y - 3, { width: 26, lineBreak: false });
    }
    const slot = (right - left) / Math.max(months.length, 1);
    const barWidth = Math.max(Math.min(slot * 0.6, 28), 0.5);
    const labelEvery = Math.ceil(months.length / Math.floor((right - left) / 40));
    const points: [number, number][] = [];
    months.forEach((m, i) => {
      const cx = left + slot * (i + 0.5);
      const h = costTop === 0 ? 0 : (m.cost / costTop) * plotHeight;
      if (h > 0) doc.rect(cx - barWidth / 2, plotBottom - h, barWidth, h).fillColor(BRAND).fill();
      points.push([cx, plotBottom - (m.claims / claimsTop) * plotHeight]);
      if (i % labelEvery === 0) doc.fillColor(GREY).fontSize(7).text(m.label, cx - 20, plotBottom + 4, { width: 40, align: 'center', lineBreak: false });
    });
    if (points.length > 1) {
      doc.moveTo(...points[0]!);
      for (const p of points.slice(1)) doc.lineTo(...p);
      doc.lineWidth(1.2).strokeColor(ACCENT).stroke();
    }
    const radius = Math.min(2.5, Math.max(slot / 4, 0.6));
    for (const [x, y] of points) doc.circle(x, y, radius).fillColor(ACCENT).fill();
    // Legend.
    const legendY = plotBottom + 16;
    doc.rect(left, legendY, 10, 7).fillColor(BRAND).fill();
    doc.fillColor(INK).fontSize(8).text('Coût des sinistres (axe de gauche)', left + 14, legendY - 0.5, { lineBreak: false });
    doc.circle(left + 200, legendY + 3.5, 2.5).fillColor(ACCENT).fill();
    doc.fillColor(INK).text('Nombre de sinistres (axe de droite)', left + 207, legendY - 0.5, { lineBreak: false });
    doc.x = MARGIN;
    doc.y = top + height + 4;
    doc.fillColor(INK);
  }
}

/** 1, 2, 2.5 or 5 × a power of ten, at least `value`. */
function niceCeiling(value: number): number {
  if (value <= 0) return 0;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

async function draw(w: ReportWriter, data: RenewalReportData) {
  const { doc } = w;
  const { window, config, lossRatio, frequency, currentHalfDifference: half } = data;

  // Cover.
  doc.font('Helvetica').fontSize(10).fillColor(GREY).text('FlotteAssur', MARGIN, MARGIN + 10);
  doc.moveDown(2.5).font('Helvetica-Bold').fontSize(26).fillColor(BRAND).text('Rapport de sinistralité', { width: w.width });
  doc.moveDown(0.3).font('Helvetica-Bold').fontSize(18).fillColor(INK).text(data.organization || NOT_SET, { width: w.width });
  doc.moveDown(0.5).font('Helvetica').fontSize(11).fillColor(INK).text(`Période du ${reportDate(window.startDate)} au ${reportDate(window.endDate)}`, { width: w.width });
  doc.font('Helvetica').fontSize(10).fillColor(GREY).text(`Sinistres retenus : ${declaredLabel(window.isDeclared)} ; sinistres archivés exclus.`, { width: w.width });
  doc.text(`Édité le ${reportDate(data.issuedOn)}.`, { width: w.width });
  doc.moveDown(1.5);
  const { contract, broker } = data.parties;
  w.pairs(
    'Contrat flotte',
    contract && [
      ['Assureur', contract.insurer],
      ['N° de police', contract.policyNumber],
      ['Date d’effet', reportDate(contract.startDate)],
      ['Échéance', reportDate(contract.renewalDate)],
      ['Prime annuelle', reportEuros(contract.annualPremium)],
    ],
  );
  w.pairs(
    'Intermédiaire d’assurance',
    broker && [
      ['Cabinet', broker.name],
      ['Contact', `${broker.contactFirstName} ${broker.contactLastName}`],
      ['E-mail', broker.email],
    ],
  );

  w.heading('Indicateurs');
  w.figure('S/P (sinistres / primes acquises)', reportPercent(lossRatio.ratio), limitStatus(lossRatio.ratio, config.lossRatioPercentage), [
    `Limite : ${config.lossRatioPercentage}${NBSP}%. Coût des sinistres : ${reportEuros(lossRatio.costOfClaims)} ; primes acquises : ${reportEuros(lossRatio.earnedPremiums)}.`,
    'Primes acquises : la prime de chaque période au prorata de ses jours compris dans la fenêtre (règle du produit).',
  ]);
  if (frequency) {
    w.figure('Fréquence des sinistres (période en cours)', reportPercent(frequency.frequency), limitStatus(frequency.frequency, config.claimFrequencyPercentage), [
      `Limite : ${config.claimFrequencyPercentage}${NBSP}%. ${reportCount(frequency.claims)} sinistre(s) pour ${reportCount(frequency.motors)} véhicule(s) assuré(s) au début de la période du ${reportDate(frequency.startDate)} au ${reportDate(frequency.endDate)}.`,
    ]);
  } else {
    w.figure('Fréquence des sinistres (période en cours)', '—', null, [`Limite : ${config.claimFrequencyPercentage}${NBSP}%. Aucune période ne contient la date d’aujourd’hui.`]);
  }
  if (half) {
    w.figure('Demi-différence (période en cours)', `${reportSignedHalf(half.halfDifference)} véhicule(s)`, null, [
      `Régularisation : ${half.regularisation === null ? '—' : reportEuros(half.regularisation)}. N0 = ${reportCount(half.n0)} véhicule(s) au ${reportDate(half.startDate)}, N1 = ${reportCount(half.n1)} au ${reportDate(half.countedOn)}.`,
      'Demi-différence = (N1 - N0) / 2 ; régularisation = (N1 - N0) / 2 × prime / N0 (règle du produit ; positive : dû par l’entreprise).',
    ]);
  } else {
    w.figure('Demi-différence (période en cours)', '—', null, ['Aucune période ne contient la date d’aujourd’hui.']);
  }

  // Monthly chart and breakdowns.
  w.newPage();
  const chart = chartPoints(data.monthly);
  w.heading(chart.byYear ? `Évolution annuelle (fenêtre de plus de ${CHART_MONTHS_MAX} mois)` : 'Évolution mensuelle');
  w.barChart(chart.points);
  w.note(`${reportCount(data.claimsTotal)} sinistre(s) pour un coût de ${reportEuros(lossRatio.costOfClaims)} sur la période.`);

  const tally = (title: string, label: (row: { claims: number; cost: number }) => string) =>
    [
      { title, width: w.width - 200, value: label },
      { title: 'Sinistres', width: 80, align: 'right', value: (r: { claims: number }) => reportCount(r.claims) },
      { title: 'Coût', width: 120, align: 'right', value: (r: { cost: number }) => reportEuros(r.cost) },
    ] as Column<{ claims: number; cost: number }>[];
  const total = { claims: data.claimsTotal, cost: lossRatio.costOfClaims };

  w.heading('Par garantie');
  await w.table(
    tally('Garantie', (r) => (r === total ? 'Total' : ((r as (typeof data.byGuarantee)[number]).label ?? 'Sans garantie'))),
    data.byGuarantee,
    total,
  );
  w.heading('Par responsabilité');
  await w.table(
    tally('Responsabilité', (r) => (r === total ? 'Total' : RESPONSIBILITY_LABELS[(r as (typeof data.byResponsibility)[number]).responsibility])),
    data.byResponsibility,
    total,
  );
  w.heading('Par catégorie de véhicule');
  await w.table(
    tally('Catégorie', (r) => (r === total ? 'Total' : (r as (typeof data.byCategory)[number]).type ? vehiculeTypeLabel((r as (typeof data.byCategory)[number]).type) : 'Sans véhicule ou sans catégorie')),
    data.byCategory,
    total,
  );
  w.heading('Conducteurs les plus sinistrés (sinistres responsables sur 12 mois)');
  if (data.topDrivers.length === 0) w.note('Aucun sinistre responsable sur les 12 mois finissant le dernier jour de la période.');
  else
    await w.table(
      [
        { title: 'Conducteur', width: w.width - 200, value: (d) => `${d.lastName.toUpperCase()} ${d.firstName}` },
        { title: 'Sinistres responsables', width: 100, align: 'right', value: (d) => reportCount(d.atFaultClaims) },
        { title: 'Coût', width: 100, align: 'right', value: (d) => reportEuros(d.cost) },
      ],
      data.topDrivers,
    );

  // Half-differences.
  w.heading('Demi-différence par période');
  if (data.halfDifferences.length === 0) w.note('Aucune période d’assurance renseignée.');
  else {
    await w.table(
      [
        { title: 'Période', width: 120, value: (h) => `${reportDate(h.startDate)} – ${reportDate(h.endDate)}${h.isCurrent ? ' *' : ''}` },
        { title: 'N0', width: 45, align: 'right', value: (h) => reportCount(h.n0) },
        { title: 'N1', width: 45, align: 'right', value: (h) => reportCount(h.n1) },
        { title: 'Compté le', width: 65, align: 'right', value: (h) => reportDate(h.countedOn) },
        { title: 'Prime unitaire', width: 80, align: 'right', value: (h) => (h.unitPremium === null ? '—' : reportEuros(h.unitPremium)) },
        { title: 'Demi-diff.', width: 60, align: 'right', value: (h) => reportSignedHalf(h.halfDifference) },
        { title: 'Régularisation', width: w.width - 415, align: 'right', value: (h) => (h.regularisation === null ? '—' : reportEuros(h.regularisation)) },
      ],
      data.halfDifferences,
    );
    w.note('* période en cours : N1 compté aujourd’hui. Prime unitaire = prime de la période / N0 ; régularisation positive : dû par l’entreprise, négative : remboursé par l’assureur.');
  }

  // Claims, landscape: each with its status and amounts.
  w.newPage('landscape');
  w.heading('Sinistres de la période');
  if (data.claims.length === 0) w.note('Aucun sinistre sur la période.');
  else {
    await w.table(
      [
        { title: 'Date', width: 52, value: (c) => reportDate(c.date) },
        { title: 'Référence', width: 66, value: (c) => c.ref ?? '—' },
        { title: 'Immat.', width: 60, value: (c) => (c.immatriculation ? formatPlate(c.immatriculation) : '—') },
        { title: 'Conducteur', width: 100, value: (c) => c.driverName ?? '—' },
        { title: 'Garantie', width: 120, value: (c) => c.guarantee ?? '—' },
        { title: 'Statut', width: 52, value: (c) => SINISTER_STATUS_LABELS[c.status] },
        { title: 'Resp.', width: 32, align: 'right', value: (c) => (c.responsibilityRate === null ? '—' : `${c.responsibilityRate}${NBSP}%`) },
        { title: 'Déclaré', width: 36, align: 'center', value: (c) => (c.isDeclared ? 'Oui' : 'Non') },
        { title: 'Réglé', width: 76, align: 'right', value: (c) => reportEuros(c.paid) },
        { title: 'Provision', width: 76, align: 'right', value: (c) => reportEuros(c.reserve) },
        { title: 'Coût total', width: w.width - 670, align: 'right', value: (c) => reportEuros(c.cost) },
      ],
      data.claims,
    );
  }
  const more = data.claimsTotal - data.claims.length;
  if (more > 0) {
    w.note(
      `… et ${reportCount(more)} autre(s) sinistre(s) non listé(s) : le rapport liste les ${reportCount(data.claims.length)} premiers par date ; les indicateurs, le graphique et les répartitions comptent les ${reportCount(data.claimsTotal)} sinistres. La liste complète se consulte sur la page Sinistres.`,
    );
  }
}

/** The renewal report as a readable stream (ReportWriter.render). */
export function renderRenewalReport(data: RenewalReportData): Readable {
  const writer = new ReportWriter({
    title: `Rapport de sinistralité — ${data.organization}`,
    subject: 'Rapport de sinistralité',
    footer: `Rapport de sinistralité · ${data.organization} · du ${reportDate(data.window.startDate)} au ${reportDate(data.window.endDate)} · édité le ${reportDate(data.issuedOn)}`,
  });
  return writer.render((w) => draw(w, data));
}
