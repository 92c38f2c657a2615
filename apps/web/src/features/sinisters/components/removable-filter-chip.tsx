import Chip from '@mui/material/Chip';

/**
 * A filter that came with a link and has no control of its own on the screen (one driver's
 * claims): its words, « Conducteur : Jean Martin », and the cross that removes it. The whole chip
 * removes it, so Enter and Space do (a deletable chip alone answers only Backspace and Delete).
 */
export function RemovableFilterChip({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <Chip
      label={label}
      onClick={onRemove}
      onDelete={onRemove}
      aria-label={`${label} (retirer ce filtre)`}
      color="primary"
      variant="outlined"
      sx={{ justifySelf: 'start', maxWidth: '100%', fontWeight: 600, bgcolor: 'background.paper' }}
    />
  );
}
