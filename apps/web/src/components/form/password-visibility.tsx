import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import { type ReactNode, useState } from 'react';

/**
 * « Afficher le mot de passe »: one eye button that shows or hides every password field of a form
 * (a new password and its confirmation together). Put `adornment` at the end of the first field
 * and `type` on each. The login page has its own, without MUI (its first load stays small).
 */
export function usePasswordVisibility(plural = false): { type: 'text' | 'password'; adornment: ReactNode } {
  const [visible, setVisible] = useState(false);
  const label = visible ? (plural ? 'Masquer les mots de passe' : 'Masquer le mot de passe') : plural ? 'Afficher les mots de passe' : 'Afficher le mot de passe';
  return {
    type: visible ? 'text' : 'password',
    adornment: (
      <InputAdornment position="end">
        <IconButton aria-label={label} aria-pressed={visible} onClick={() => setVisible((shown) => !shown)} edge="end">
          {visible ? <VisibilityOff /> : <Visibility />}
        </IconButton>
      </InputAdornment>
    ),
  };
}
