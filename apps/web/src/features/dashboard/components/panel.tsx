import Card from '@mui/material/Card';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** One block of the dashboard (a chart, a table): a card labelled by its h3. */
export function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card component="section" aria-labelledby={id} sx={{ p: 2, display: 'grid', gap: 1, alignContent: 'start', minWidth: 0 }}>
      <Typography id={id} component="h3" variant="subtitle1" sx={{ fontWeight: 700 }}>
        {title}
      </Typography>
      {children}
    </Card>
  );
}
