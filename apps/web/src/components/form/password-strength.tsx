import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { passwordStrength } from '@flotte/contract';
import { useId } from 'react';

const COLORS = ['error', 'error', 'warning', 'success', 'success'] as const;

/**
 * The strength meter under a new password (recovery, signup, account): a bar, its word
 * (« Faible », « Bon »…) and what would make it better. Nothing while the field is empty.
 */
export function PasswordStrength({ password }: { password: string }) {
  const id = useId();
  if (!password) return null;
  const { score, label, hint } = passwordStrength(password);
  return (
    <Box sx={{ display: 'grid', gap: 0.5 }}>
      <LinearProgress
        variant="determinate"
        value={Math.max(8, score * 25)}
        color={COLORS[score]}
        aria-labelledby={id}
        sx={{ height: 6, borderRadius: 3 }}
      />
      <Typography id={id} variant="body2" aria-live="polite">
        <Box component="span" sx={{ fontWeight: 600 }}>
          Robustesse : {label}
        </Box>
        {hint && (
          <Box component="span" sx={{ color: 'text.secondary' }}>
            {' '}
            — {hint}
          </Box>
        )}
      </Typography>
    </Box>
  );
}
