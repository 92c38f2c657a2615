import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { DocumentTitle } from '../../../components/document-title';

/**
 * The broker's page top: its title (h1 and document title), what the table holds, its action. The
 * registers' RegisterPageHeader in look; not imported, so the registers' first-load chunks stay as
 * they are (a module shared with one more page leaves its chunk for one of its own).
 */
export function BrokerPageHeader({ title, summary, action }: { title: string; summary: string | undefined; action: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2 }}>
      <DocumentTitle title={title} />
      <Box sx={{ minWidth: 0 }}>
        <Typography component="h1" variant="h4">
          {title}
        </Typography>
        <Typography color="textSecondary" sx={{ mt: 0.5, minHeight: '1.5em' }}>
          {summary}
        </Typography>
      </Box>
      <Box sx={{ flexShrink: 0 }}>{action}</Box>
    </Box>
  );
}
