import FolderOutlined from '@mui/icons-material/FolderOutlined';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import TableChartOutlined from '@mui/icons-material/TableChartOutlined';
import ArticleOutlined from '@mui/icons-material/ArticleOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import { DOCUMENT_EXPIRY_NOTICE_DAYS, todayIso, type DocumentKind } from '@flotte/contract';

/** What a document is, for its icon and what can be done with it. */
export type FileKind = 'folder' | 'image' | 'pdf' | 'spreadsheet' | 'text' | 'other';

const SPREADSHEETS = new Set([
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.spreadsheet',
]);
const TEXTS = new Set([
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.presentation',
]);

/** The kind of a document from the media type the API read in its bytes. */
export function fileKind(doc: { kind: DocumentKind; type: string | null }): FileKind {
  if (doc.kind === 'folder') return 'folder';
  const type = doc.type ?? '';
  if (type.startsWith('image/')) return 'image';
  if (type === 'application/pdf') return 'pdf';
  if (SPREADSHEETS.has(type)) return 'spreadsheet';
  if (TEXTS.has(type)) return 'text';
  return 'other';
}

/** The types the API previews inline (its /preview): the browser shows them itself. HEIC is not one. */
const PREVIEWABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'application/pdf']);

export function canPreview(type: string | null): boolean {
  return type !== null && PREVIEWABLE.has(type);
}

/** Spoken name of a kind, for an icon's label and a filter. */
export const FILE_KIND_LABELS: Readonly<Record<FileKind, string>> = {
  folder: 'Dossier',
  image: 'Image',
  pdf: 'PDF',
  spreadsheet: 'Tableur',
  text: 'Document',
  other: 'Fichier',
};

const ICONS = {
  folder: FolderOutlined,
  image: ImageOutlined,
  pdf: PictureAsPdfOutlined,
  spreadsheet: TableChartOutlined,
  text: ArticleOutlined,
  other: InsertDriveFileOutlined,
} as const;

const COLORS: Readonly<Record<FileKind, SvgIconProps['color']>> = {
  folder: 'primary',
  image: 'success',
  pdf: 'error',
  spreadsheet: 'success',
  text: 'info',
  other: 'action',
};

/** The icon of a folder or of a file's kind, coloured; decorative unless given a `titleAccess`. */
export function FileKindIcon({ doc, ...props }: { doc: { kind: DocumentKind; type: string | null } } & SvgIconProps) {
  const kind = fileKind(doc);
  const Icon = ICONS[kind];
  return <Icon color={COLORS[kind]} {...props} />;
}

/** `YYYY-MM-DD` plus `days` days. */
function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Whether a document's expiry date is past ('expired'), within the notice period ('soon'), or neither. */
export function expiryState(expiresOn: string | null, today: string = todayIso()): 'expired' | 'soon' | null {
  if (!expiresOn) return null;
  if (expiresOn < today) return 'expired';
  if (expiresOn <= addDays(today, DOCUMENT_EXPIRY_NOTICE_DAYS)) return 'soon';
  return null;
}
