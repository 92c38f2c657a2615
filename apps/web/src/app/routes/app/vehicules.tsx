import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { DocumentTitle } from '../../../components/document-title';

// Placeholder so the unlocked menu entry leads somewhere: the vehicles register replaces it.
export default function VehiculesRoute() {
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <DocumentTitle title="Véhicules" />
      <Typography component="h1" variant="h4">
        Véhicules
      </Typography>
    </Box>
  );
}
