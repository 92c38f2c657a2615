import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { formatPercent, LIMIT_COLORS, LIMIT_LABELS, limitStatus } from '../../../lib/insurance-figures';

/**
 * A figure of the current period against its limit: a chip coloured as the dashboard colours it
 * (green below, orange within 10 points, red above) and the status in words under it, never the
 * colour alone. No figure (no period, no premium, no vehicle): a dash read 'Non calculable'.
 */
export function LimitFigure({ value, limit }: { value: number | null; limit: number }) {
  const status = limitStatus(value, limit);
  if (value === null) {
    return (
      <Box component="span" sx={{ color: 'text.secondary' }} title={LIMIT_LABELS.unknown}>
        <span aria-hidden>—</span>
        <Box component="span" sx={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
          {LIMIT_LABELS.unknown}
        </Box>
      </Box>
    );
  }
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.25 }}>
      <Chip size="small" color={LIMIT_COLORS[status]} label={formatPercent(value)} sx={{ fontWeight: 700 }} />
      <Box component="span" sx={{ fontSize: '0.75rem', lineHeight: 1.3, color: 'text.secondary' }}>
        {LIMIT_LABELS[status]} ({limit}&nbsp;%)
      </Box>
    </Box>
  );
}
