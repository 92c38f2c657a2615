import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { ancestorsQuery } from '../../../components/documents/documents-api';
import { GED_ROOT_LABEL } from '../utils/ged-texts';

/** The link to a folder of the GED (the root without `parent`): a real link, so it opens in a new tab too. */
export function folderHref(uuid: string | null | undefined): string {
  return uuid ? `/ged?parent=${encodeURIComponent(uuid)}` : '/ged';
}

/**
 * « Mes documents › Contrats › 2026 »: every folder above the one shown is a link; the last one is
 * the current page. On a phone a deep path keeps its first and last two crumbs (the « … » opens the rest).
 */
export function GedBreadcrumb({ parent }: { parent: string | undefined }) {
  const { data: ancestors, isPending, error } = useQuery(ancestorsQuery(parent));
  // While the path loads (a shared link), its room is kept and the root is already there.
  const folders = ancestors ?? [];
  const crumbs = [{ uuid: null as string | null, name: GED_ROOT_LABEL }, ...folders.map((folder) => ({ uuid: folder.uuid, name: folder.folderName }))];
  const pending = parent !== undefined && isPending && !error;

  return (
    <Breadcrumbs
      aria-label="Fil d’Ariane"
      separator="›"
      maxItems={4}
      itemsBeforeCollapse={1}
      itemsAfterCollapse={2}
      sx={{ minHeight: 28, '& .MuiBreadcrumbs-ol': { rowGap: 0.5 }, '& .MuiBreadcrumbs-li': { minWidth: 0, overflowWrap: 'anywhere' } }}
    >
      {crumbs.map((crumb, index) => {
        const current = index === crumbs.length - 1 && !pending;
        return current ? (
          <Typography key={crumb.uuid ?? 'root'} color="textPrimary" aria-current="page" sx={{ fontWeight: 600 }}>
            {crumb.name}
          </Typography>
        ) : (
          <Link key={crumb.uuid ?? 'root'} component={RouterLink} to={folderHref(crumb.uuid)} underline="hover" color="inherit">
            {crumb.name}
          </Link>
        );
      })}
      {pending && (
        <Typography color="textSecondary" aria-hidden>
          …
        </Typography>
      )}
    </Breadcrumbs>
  );
}
