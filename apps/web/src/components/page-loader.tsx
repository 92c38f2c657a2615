import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** Centered spinner while a route or the current user loads. */
export function PageLoader({ label = 'Chargement…', fullScreen = false }: { label?: string; fullScreen?: boolean }) {
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{ display: 'grid', placeItems: 'center', minHeight: fullScreen ? '100dvh' : 240, width: '100%' }}
    >
      <CircularProgress aria-label={label} />
    </Box>
  );
}
