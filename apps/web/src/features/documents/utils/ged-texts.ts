import { formatFileSize, type DocumentItem } from '@flotte/contract';
import { formatDate } from '../../../lib/format';

/** The root of the tree, first crumb of the breadcrumb (SPEC 9). */
export const GED_ROOT_LABEL = 'Mes documents';
export const GED_TITLE = 'Gestion documentaire';

const shortDate = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** `2026-12-03` → « 3 déc. 2026 ». */
export function formatShortDate(isoDate: string): string {
  return shortDate.format(new Date(`${isoDate.slice(0, 10)}T00:00:00Z`));
}

/** « Expiré le 3 déc. 2026 » or « Expire le 3 déc. 2026 ». */
export function expiryLabel(expiresOn: string, expired: boolean): string {
  return `${expired ? 'Expiré' : 'Expire'} le ${formatShortDate(expiresOn)}`;
}

/** A file's size in French units (« 1,2 Mo »); nothing for a folder. */
export function documentSize(doc: Pick<DocumentItem, 'size'>): string {
  return doc.size === null ? '' : formatFileSize(doc.size);
}

export function authorName(doc: Pick<DocumentItem, 'author'>): string {
  return doc.author ? `${doc.author.firstName} ${doc.author.lastName}`.trim() : '';
}

/** The last change, as a French date (26/11/2026). */
export function documentDate(doc: Pick<DocumentItem, 'updatedAt'>): string {
  return formatDate(doc.updatedAt);
}
