import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { DOCUMENT_EXPIRY_NOTICE_DAYS } from '@flotte/contract';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { documentName, expiringQuery } from '../../../components/documents/documents-api';
import { expiryState } from '../../../components/documents/file-kind';
import { folderHref } from './ged-breadcrumb';
import { expiryLabel } from '../utils/ged-texts';

/** How many expiring documents the panel names; it counts the others. */
const SHOWN = 5;

/**
 * « À renouveler »: the documents expired or expiring within 30 days, soonest first, each with a
 * link to its folder. Nothing at all when none (and nothing while it loads or if it fails: the
 * list below is the page's subject).
 */
export function ExpiringPanel() {
  const { data } = useQuery(expiringQuery({ page: 1, limit: SHOWN, days: DOCUMENT_EXPIRY_NOTICE_DAYS }));
  if (!data || data.total === 0) return null;
  const others = data.total - data.data.length;
  const anyExpired = data.data.some((doc) => doc.expiresOn && expiryState(doc.expiresOn) === 'expired');

  return (
    <Alert severity={anyExpired ? 'error' : 'warning'} component="section" role="region" aria-labelledby="ged-expiring-title" sx={{ '& .MuiAlert-message': { minWidth: 0, flex: 1 } }}>
      <AlertTitle id="ged-expiring-title" component="h2">
        À renouveler
      </AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2.5, display: 'grid', gap: 0.5 }}>
        {data.data.map((doc) => (
          <Box component="li" key={doc.uuid} sx={{ overflowWrap: 'anywhere' }}>
            <Link component={RouterLink} to={folderHref(doc.parent)} color="inherit" sx={{ fontWeight: 600 }} aria-label={`${documentName(doc)} : ouvrir son dossier`}>
              {documentName(doc)}
            </Link>
            {doc.expiresOn && ` — ${expiryLabel(doc.expiresOn, expiryState(doc.expiresOn) === 'expired').replace(/^E/, 'e')}`}
          </Box>
        ))}
      </Box>
      {others > 0 && <Box sx={{ mt: 0.5 }}>{others === 1 ? 'Et un autre document.' : `Et ${others} autres documents.`}</Box>}
    </Alert>
  );
}
