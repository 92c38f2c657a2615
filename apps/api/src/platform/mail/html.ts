/**
 * HTML escaped by construction: `html` is a tagged template whose interpolations are escaped
 * unless they are themselves SafeHtml (built by `html` or the layout). A template never
 * concatenates strings into markup.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

type Interpolation = SafeHtml | string | number | null | undefined | false | readonly Interpolation[];

function toHtml(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(toHtml).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += toHtml(value) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

/**
 * A URL a message may point to: absolute http(s) or mailto only, so that no `javascript:` or
 * `data:` link reaches a mail client whatever the data says.
 */
export function safeUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`Not an absolute URL in an e-mail: ${JSON.stringify(value.slice(0, 100))}`);
  }
  if (!['http:', 'https:', 'mailto:'].includes(url.protocol)) {
    throw new Error(`URL scheme not allowed in an e-mail: ${url.protocol}`);
  }
  return url.toString();
}
