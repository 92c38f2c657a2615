import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { LIMIT_COLORS, LIMIT_LABELS, type LimitStatus } from '../../../lib/insurance-figures';
import { FormulaButton } from './formula-button';
import { LazyFormulaTooltip } from './lazy-formula-tooltip';
import { Placeholder } from './placeholder';

export type FigureCardProps = {
  title: string;
  /** The figure as shown (« 65,3 % »), or nothing while loading. */
  value?: string;
  /** Where the figure comes from, in one click (the register with the matching filters). */
  to?: string;
  /** What the link opens, for a screen reader: 'Voir les 12 sinistres de la période'. */
  linkLabel?: string;
  /** The status against the limit, with its words; or a neutral caption for a figure without limit. */
  status?: LimitStatus;
  caption?: string;
  /** The formula and the figures behind the value (the tooltip). */
  formula: string;
  /** A line under the value: the limit, the period… */
  detail?: ReactNode;
};

const EDGE: Readonly<Record<LimitStatus, string>> = { below: 'success.main', near: 'warning.main', above: 'error.main', unknown: 'divider' };

/** One of the dashboard's figures: its value (a link), its status against the limit in colour and words, its formula. */
export function FigureCard({ title, value, to, linkLabel, status, caption, formula, detail }: FigureCardProps) {
  return (
    <Card component="article" aria-label={title} sx={{ p: 2, display: 'grid', gap: 1, alignContent: 'start', borderTop: 4, borderTopColor: status ? EDGE[status] : 'primary.main', minHeight: 168 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography component="h3" variant="subtitle2" sx={{ fontWeight: 700 }}>
          {title}
        </Typography>
        {value === undefined ? (
          <FormulaButton label={`Calcul : ${title}`} formula={formula} />
        ) : (
          <LazyFormulaTooltip label={`Calcul : ${title}`} formula={formula} />
        )}
      </Box>
      {value === undefined ? (
        <Placeholder width="60%" height="2.4rem" />
      ) : to ? (
        <Link component={RouterLink} to={to} aria-label={linkLabel} underline="hover" sx={{ fontSize: '2rem', fontWeight: 700, lineHeight: 1.2, justifySelf: 'start' }}>
          {value}
        </Link>
      ) : (
        <Typography sx={{ fontSize: '2rem', fontWeight: 700, lineHeight: 1.2 }}>{value}</Typography>
      )}
      {/* The status and detail rows keep their room while the figures load (no layout shift). */}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, minHeight: 24 }}>
        {status && value !== undefined && <Chip size="small" color={LIMIT_COLORS[status]} label={LIMIT_LABELS[status]} sx={{ fontWeight: 600 }} />}
        {caption && value !== undefined && (
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {caption}
          </Typography>
        )}
      </Box>
      <Typography variant="body2" color="textSecondary" sx={{ minHeight: '2.86em' }}>
        {detail}
      </Typography>
    </Card>
  );
}
