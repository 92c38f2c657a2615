import CloseIcon from '@mui/icons-material/Close';
import Alert, { type AlertColor } from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Portal from '@mui/material/Portal';
import Snackbar from '@mui/material/Snackbar';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { snackbar, useSnackbarMessage, type SnackbarMessage, type SnackbarType } from './snackbar';

const SEVERITY: Record<SnackbarType, AlertColor> = {
  success: 'success',
  error: 'error',
  info: 'info',
  loading: 'info',
};

function SnackbarContent({ message }: { message: SnackbarMessage }) {
  const percent = Math.round(message.progress);
  return (
    <Alert
      severity={SEVERITY[message.type]}
      variant="filled"
      role={message.type === 'error' ? 'alert' : 'status'}
      icon={message.type === 'loading' ? <CircularProgress size={20} color="inherit" aria-hidden /> : undefined}
      sx={{ width: { xs: '100%', sm: 400 }, alignItems: 'flex-start', boxShadow: 6 }}
      action={
        <>
          {message.undo && (
            <Button
              color="inherit"
              size="small"
              onClick={() => {
                message.undo?.();
                snackbar.hide(message.id);
              }}
            >
              Annuler
            </Button>
          )}
          <IconButton color="inherit" size="small" aria-label="Fermer" onClick={() => snackbar.hide(message.id)}>
            <CloseIcon fontSize="small" />
          </IconButton>
        </>
      }
    >
      <AlertTitle sx={{ mb: message.description || message.type === 'loading' ? 0.5 : 0 }}>{message.title}</AlertTitle>
      {message.description && <Typography variant="body2">{message.description}</Typography>}
      {message.type === 'loading' && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1 }}>
          <LinearProgress
            variant="determinate"
            value={percent}
            color="inherit"
            aria-label={message.title}
            sx={{ flex: 1, height: 6, borderRadius: 3 }}
          />
          <Typography variant="body2" component="span" sx={{ minWidth: 44, textAlign: 'right' }}>
            {percent} %
          </Typography>
        </Box>
      )}
    </Alert>
  );
}

/** Renders the snackbar events of `snackbar.show()`; one host per layout. */
export function SnackbarHost() {
  const message = useSnackbarMessage();
  // Keep the last message while the exit transition plays.
  const [shown, setShown] = useState<SnackbarMessage | null>(message);
  if (message && message !== shown) setShown(message);
  const root = useRef<HTMLDivElement>(null);
  // A dialog opened or closed over another one while the snackbar was up (a confirmation in a
  // details dialog) hides every sibling of the dialog left open, the snackbar with them (MUI's
  // modal manager): each new message is reachable again, its « Annuler » with it.
  useEffect(() => {
    root.current?.removeAttribute('aria-hidden');
  }, [message?.id]);

  if (!shown) return null;
  // Portalled on demand: a snackbar raised while a dialog is open (support form) is created after
  // the dialog hid its siblings from assistive technologies, so it is still announced.
  return (
    <Portal>
      <Snackbar
        ref={root}
        open={message !== null}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        slotProps={{ transition: { onExited: () => setShown(null) } }}
      >
        <div>
          <SnackbarContent message={message ?? shown} />
        </div>
      </Snackbar>
    </Portal>
  );
}
