import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const standardFontDataUrl = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/**
 * The text of a PDF, page by page, as a reader would copy it: pdfjs-dist's text layer, items joined
 * by a space and every run of white space (no-break spaces included) made one space.
 */
export async function pdfText(bytes: Buffer | Uint8Array): Promise<{ pages: string[]; text: string; info: Record<string, unknown> }> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl, verbosity: 0, isEvalSupported: false }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      pages.push(
        content.items
          .map((item) => ('str' in item ? item.str : ''))
          .join(' ')
          .replace(/\s+/g, ' ')
          .trim(),
      );
    }
    const { info } = await pdf.getMetadata();
    return { pages, text: pages.join(' '), info: info as Record<string, unknown> };
  } finally {
    await pdf.destroy();
  }
}

/** The same folding, for the text a test expects to find. */
export const spaced = (text: string) => text.replace(/\s+/g, ' ').trim();
