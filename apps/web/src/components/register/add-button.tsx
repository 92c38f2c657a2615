import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';

/** 'Ajouter un conducteur': the header's button, and the empty list's. */
export function AddButton({ label, onClick, sx }: { label: string; onClick: () => void; sx?: SxProps<Theme> }) {
  return (
    <Button variant="contained" startIcon={<Add />} onClick={onClick} sx={sx}>
      {label}
    </Button>
  );
}
