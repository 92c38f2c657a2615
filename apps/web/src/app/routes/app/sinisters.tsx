import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { DocumentTitle } from '../../../components/document-title';

// Placeholder so the unlocked menu entry leads somewhere: the claims register replaces it.
export default function SinistersRoute() {
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <DocumentTitle title="Sinistres" />
      <Typography component="h1" variant="h4">
        Sinistres
      </Typography>
    </Box>
  );
}
