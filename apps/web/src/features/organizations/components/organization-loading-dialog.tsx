import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Typography from '@mui/material/Typography';

/** Modal shown while the current organization changes; it cannot be dismissed. */
export function OrganizationLoadingDialog({ open }: { open: boolean }) {
  return (
    <Dialog open={open} aria-labelledby="organization-loading-title" aria-describedby="organization-loading-text">
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, px: 5, py: 4, textAlign: 'center' }}>
        <CircularProgress aria-hidden />
        <Typography id="organization-loading-title" component="h2" variant="h6">
          Chargement de l&apos;organisation...
        </Typography>
        <Typography id="organization-loading-text" color="textSecondary">
          Veuillez patienter quelques secondes
        </Typography>
      </DialogContent>
    </Dialog>
  );
}
