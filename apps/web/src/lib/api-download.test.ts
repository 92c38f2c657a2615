import { describe, expect, it } from 'vitest';
import { attachmentFileName } from './api-download';

describe('attachmentFileName', () => {
  it('reads the plain name', () => {
    expect(attachmentFileName('attachment; filename="rapport.pdf"')).toBe('rapport.pdf');
  });

  it('prefers the UTF-8 name (RFC 6266) to its ASCII fallback', () => {
    expect(attachmentFileName(`attachment; filename="vehicules _ete_.csv"; filename*=UTF-8''v%C3%A9hicules%20%22%C3%A9t%C3%A9%22.csv`)).toBe('véhicules "été".csv');
  });

  it('falls back to the plain name when the encoded one is malformed, and gives null without a name', () => {
    expect(attachmentFileName(`attachment; filename="a.csv"; filename*=UTF-8''%E9%`)).toBe('a.csv');
    expect(attachmentFileName('attachment')).toBeNull();
    expect(attachmentFileName(null)).toBeNull();
  });
});
