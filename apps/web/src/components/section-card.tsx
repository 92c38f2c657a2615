import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export type SectionCardProps = {
  /** The anchor (`/parameters#contrat`) and the heading's id. */
  id: string;
  title: string;
  /** One line under the title: what the section is for. */
  description?: ReactNode;
  /** Beside the title: the section's main action (a button). */
  action?: ReactNode;
  children: ReactNode;
};

/** One titled block of a settings page: a landmark (`section` labelled by its h2) in a card. */
export function SectionCard({ id, title, description, action, children }: SectionCardProps) {
  const headingId = `${id}-titre`;
  return (
    <Card component="section" id={id} aria-labelledby={headingId} sx={{ scrollMarginTop: 80 }}>
      <CardContent sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }}>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', justifyContent: 'space-between', flexWrap: 'wrap' }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography component="h2" variant="h6" id={headingId}>
              {title}
            </Typography>
            {description ? (
              <Typography variant="body2" color="textSecondary">
                {description}
              </Typography>
            ) : null}
          </Box>
          {action}
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}

/** Label–value pairs of a read-only view, two columns from tablet width. */
export function FactList({ facts }: { facts: readonly (readonly [string, ReactNode])[] }) {
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
      {facts.map(([label, value]) => (
        <Box key={label} sx={{ minWidth: 0 }}>
          <Typography component="dt" variant="caption" color="textSecondary">
            {label}
          </Typography>
          <Typography component="dd" variant="body1" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
