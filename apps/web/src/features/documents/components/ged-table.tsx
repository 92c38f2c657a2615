import Box from '@mui/material/Box';
import type { DocumentItem } from '@flotte/contract';
import type { RegisterColumn } from '../../../components/register/register-cells';
import { documentName } from '../../../components/documents/documents-api';
import { FILE_KIND_LABELS, FileKindIcon, fileKind } from '../../../components/documents/file-kind';
import { authorName, documentDate, documentSize } from '../utils/ged-texts';
import { ExpiryChip } from './expiry-chip';

/** The GED's columns: name (with its icon), kind, size, date, author, expiry. */
export const GED_COLUMNS: readonly RegisterColumn<DocumentItem>[] = [
  {
    id: 'name',
    label: 'Nom',
    hideOnMobile: true,
    render: (doc) => (
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', verticalAlign: 'middle', gap: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
        <FileKindIcon doc={doc} fontSize="small" sx={{ flexShrink: 0 }} aria-hidden />
        {documentName(doc)}
      </Box>
    ),
  },
  { id: 'kind', label: 'Type', render: (doc) => FILE_KIND_LABELS[fileKind(doc)], noWrap: true },
  { id: 'size', label: 'Taille', render: documentSize, noWrap: true, align: 'right' },
  { id: 'date', label: 'Modifié le', render: documentDate, noWrap: true },
  { id: 'author', label: 'Ajouté par', render: authorName },
  { id: 'expiry', label: 'Expiration', render: (doc) => (doc.expiresOn ? <ExpiryChip expiresOn={doc.expiresOn} /> : null), noWrap: true },
];
