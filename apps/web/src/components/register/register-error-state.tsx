import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';

/** A failed list query, said once, inline, in place of the rows (STYLE habit 8), with 'Réessayer'. */
export function RegisterErrorState({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  return (
    <Box sx={{ p: 2 }}>
      <Alert
        severity="error"
        action={
          onRetry ? (
            <Button color="inherit" size="small" onClick={onRetry}>
              Réessayer
            </Button>
          ) : undefined
        }
      >
        {error.message || 'Impossible de charger la liste.'}
      </Alert>
    </Box>
  );
}
