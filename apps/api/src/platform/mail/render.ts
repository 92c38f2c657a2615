import type { z } from 'zod';
import { html, safeUrl, type SafeHtml } from './html.js';

/**
 * One source per e-mail: a template returns its subject, heading and content blocks; the shared
 * layout turns the same blocks into the HTML part and the plain-text part, so the two never
 * drift apart. Every text is escaped when it becomes HTML.
 */

/** The name and logo a message shows: the organization's environment, else the product. */
export type Brand = Readonly<{ name: string; logoUrl: string | null }>;

export const DEFAULT_BRAND: Brand = Object.freeze({ name: 'FlotteAssur', logoUrl: null });

export type MailContext = Readonly<{
  /** Where links point: PUBLIC_URL, or the request's origin when it is unset. */
  baseUrl: string;
  brand: Brand;
}>;

export type Inline = string | { readonly strong: string } | { readonly text: string; readonly href: string };

export type Block =
  | { readonly kind: 'paragraph'; readonly parts: readonly Inline[] }
  | { readonly kind: 'button'; readonly label: string; readonly href: string }
  | { readonly kind: 'facts'; readonly rows: readonly (readonly [label: string, value: string])[] }
  | { readonly kind: 'note'; readonly parts: readonly Inline[] };

export const paragraph = (...parts: Inline[]): Block => ({ kind: 'paragraph', parts });
export const strong = (text: string): Inline => ({ strong: text });
export const link = (text: string, href: string): Inline => ({ text, href: safeUrl(href) });
export const button = (label: string, href: string): Block => ({ kind: 'button', label, href: safeUrl(href) });
export const facts = (rows: readonly (readonly [string, string])[]): Block => ({ kind: 'facts', rows });
export const note = (...parts: Inline[]): Block => ({ kind: 'note', parts });

export type MailContent = Readonly<{ subject: string; heading: string; blocks: readonly Block[] }>;

export type TemplateTools = Readonly<{
  brand: Brand;
  /** An absolute link to a page of the web app: `url('/recover/password', { token })`. */
  url(path: `/${string}`, query?: Record<string, string>): string;
}>;

export type MailTemplate<S extends z.ZodType = z.ZodType> = Readonly<{
  /** What the template needs; checked when the message is queued. */
  schema: S;
  render(data: z.output<S>, tools: TemplateTools): MailContent;
}>;

export function defineTemplate<S extends z.ZodType>(template: MailTemplate<S>): MailTemplate<S> {
  return template;
}

export type RenderedMail = Readonly<{ subject: string; html: string; text: string }>;

function normalizeBaseUrl(baseUrl: string): string {
  const url = new URL(safeUrl(baseUrl));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('The base URL of e-mail links must be http(s)');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function toolsFor(context: MailContext): TemplateTools {
  const base = normalizeBaseUrl(context.baseUrl);
  return {
    brand: context.brand,
    url(path, query) {
      if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`An e-mail link path must start with one /: ${path}`);
      const search = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString()}` : '';
      return safeUrl(`${base}${path}${search}`);
    },
  };
}

/** Renders a template with its data (checked against its schema) into subject, HTML and text. */
export function renderMail<S extends z.ZodType>(template: MailTemplate<S>, data: z.input<S>, context: MailContext): RenderedMail {
  const parsed = template.schema.parse(data) as z.output<S>;
  const tools = toolsFor(context);
  const content = template.render(parsed, tools);
  // One line, whatever the data held: a line break in a header would start another header.
  const subject = content.subject.replace(/\s+/g, ' ').trim();
  return { subject, html: layoutHtml({ ...content, subject }, tools).value, text: layoutText(content, tools) };
}

/** What a reader of the plain-text part sees, subject first: what tests read. */
export function renderMailToText<S extends z.ZodType>(template: MailTemplate<S>, data: z.input<S>, context: MailContext): string {
  const mail = renderMail(template, data, context);
  return `Objet : ${mail.subject}\n\n${mail.text}`;
}

// ---------------------------------------------------------------------------------------------
// The shared French layout.

const FONT = 'font-family:Arial,Helvetica,sans-serif;';
const COLOR_TEXT = '#1f2933';
const COLOR_MUTED = '#616e7c';
const COLOR_PRIMARY = '#1565c0';

function footerLine(brand: Brand): string {
  const sender = brand.name === DEFAULT_BRAND.name ? DEFAULT_BRAND.name : `${brand.name} via ${DEFAULT_BRAND.name}`;
  return `Ce message vous a été envoyé automatiquement par ${sender}. Merci de ne pas y répondre.`;
}

/** A logo given as a path of the app becomes absolute; anything but http(s) is dropped. */
function logoSource(brand: Brand, tools: TemplateTools): string | null {
  if (!brand.logoUrl) return null;
  try {
    const absolute = brand.logoUrl.startsWith('/') && !brand.logoUrl.startsWith('//') ? tools.url(brand.logoUrl as `/${string}`) : safeUrl(brand.logoUrl);
    return absolute.startsWith('http') ? absolute : null;
  } catch {
    return null;
  }
}

function inlineHtml(parts: readonly Inline[]): SafeHtml {
  return html`${parts.map((part) => {
    if (typeof part === 'string') return html`${part}`;
    if ('strong' in part) return html`<strong>${part.strong}</strong>`;
    return html`<a href="${part.href}" style="color:${COLOR_PRIMARY};">${part.text}</a>`;
  })}`;
}

function blockHtml(block: Block): SafeHtml {
  switch (block.kind) {
    case 'paragraph':
      return html`<p style="margin:0 0 16px;font-size:15px;line-height:22px;">${inlineHtml(block.parts)}</p>`;
    case 'note':
      return html`<p style="margin:0 0 16px;font-size:13px;line-height:19px;color:${COLOR_MUTED};">${inlineHtml(block.parts)}</p>`;
    case 'button':
      return html`<table role="presentation" cellspacing="0" cellpadding="0" border="0" style="margin:8px 0 24px;"><tr><td style="border-radius:6px;background:${COLOR_PRIMARY};"><a href="${block.href}" style="display:inline-block;padding:12px 24px;${FONT}font-size:15px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">${block.label}</a></td></tr></table>`;
    case 'facts':
      return html`<table role="presentation" cellspacing="0" cellpadding="0" border="0" style="margin:0 0 16px;font-size:15px;line-height:22px;">${block.rows.map(
        ([label, value]) => html`<tr><td style="padding:2px 16px 2px 0;color:${COLOR_MUTED};vertical-align:top;">${label}</td><td style="padding:2px 0;font-weight:bold;">${value}</td></tr>`,
      )}</table>`;
  }
}

function layoutHtml(content: MailContent, tools: TemplateTools): SafeHtml {
  const logo = logoSource(tools.brand, tools);
  return html`<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${content.subject}</title>
</head>
<body style="margin:0;padding:0;background:#f4f6f8;">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background:#f4f6f8;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="600" cellspacing="0" cellpadding="0" border="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:8px;${FONT}color:${COLOR_TEXT};">
<tr><td style="padding:20px 32px;border-bottom:1px solid #e4e7eb;">${
    logo
      ? html`<img src="${logo}" alt="${tools.brand.name}" height="40" style="display:block;height:40px;border:0;">`
      : html`<span style="font-size:18px;font-weight:bold;">${tools.brand.name}</span>`
  }</td></tr>
<tr><td style="padding:32px;">
<h1 style="margin:0 0 24px;font-size:22px;line-height:28px;">${content.heading}</h1>
${content.blocks.map(blockHtml)}
</td></tr>
<tr><td style="padding:16px 32px;border-top:1px solid #e4e7eb;font-size:12px;line-height:18px;color:${COLOR_MUTED};">${footerLine(tools.brand)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

function inlineText(parts: readonly Inline[]): string {
  return parts
    .map((part) => {
      if (typeof part === 'string') return part;
      if ('strong' in part) return part.strong;
      return part.text === part.href ? part.href : `${part.text} (${part.href})`;
    })
    .join('');
}

function blockText(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
    case 'note':
      return inlineText(block.parts);
    case 'button':
      return `${block.label} :\n${block.href}`;
    case 'facts':
      return block.rows.map(([label, value]) => `- ${label} : ${value}`).join('\n');
  }
}

function layoutText(content: MailContent, tools: TemplateTools): string {
  return [tools.brand.name, content.heading, ...content.blocks.map(blockText), `-- \n${footerLine(tools.brand)}`].join('\n\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// French formatting shared by templates.

const frenchDate = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** 2026-03-12 → « 12 mars 2026 », 2026-06-01 → « 1er juin 2026 » (a calendar date: no time zone shift). */
export function formatFrenchDate(isoDate: string): string {
  return frenchDate.format(new Date(`${isoDate}T00:00:00Z`)).replace(/^1 /, '1er ');
}
