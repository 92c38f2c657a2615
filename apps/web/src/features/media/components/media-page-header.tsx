import ArrowBack from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { plural } from '../../../lib/format';
import { MEDIA_TEXTS } from '../utils/media-texts';

/** « Médiathèque », how many files the filters find, and the way back to the GED. */
export function MediaPageHeader({ total }: { total: number | undefined }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2 }}>
      <DocumentTitle title={MEDIA_TEXTS.title} />
      <Box sx={{ minWidth: 0 }}>
        <Typography component="h1" variant="h4">
          {MEDIA_TEXTS.title}
        </Typography>
        <Typography color="textSecondary" sx={{ mt: 0.5, minHeight: '1.5em' }}>
          {total === undefined ? undefined : plural(total, 'fichier')}
        </Typography>
      </Box>
      <Button component={RouterLink} to="/ged" variant="outlined" startIcon={<ArrowBack />}>
        {MEDIA_TEXTS.back}
      </Button>
    </Box>
  );
}
