import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import { intentProps } from './intent';

type AddButtonProps = {
  label: string;
  onClick: () => void;
  /** Hovered, focused or touched: fetch the form it opens (useRegisterActions' `preload`). */
  onIntent?: () => void;
  sx?: SxProps<Theme>;
};

/** 'Ajouter un conducteur': the header's button, and the empty list's. */
export function AddButton({ label, onClick, onIntent, sx }: AddButtonProps) {
  return (
    <Button variant="contained" startIcon={<Add />} onClick={onClick} {...intentProps(onIntent)} sx={sx}>
      {label}
    </Button>
  );
}
