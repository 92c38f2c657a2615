import Typography from '@mui/material/Typography';
import { REPORT_DESCRIPTION_MAX } from '@flotte/contract';

/** 'n/800 caractères max.', red once over the limit. */
export function DescriptionCounter({ length }: { length: number }) {
  const over = length > REPORT_DESCRIPTION_MAX;
  return (
    <Typography
      variant="caption"
      component="span"
      data-over-limit={over || undefined}
      sx={{ color: over ? 'error.main' : 'text.secondary', fontWeight: over ? 600 : 400 }}
    >
      {length}/{REPORT_DESCRIPTION_MAX} caractères max.
    </Typography>
  );
}
