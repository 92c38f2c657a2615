import ArrowBack from '@mui/icons-material/ArrowBack';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { PublicShell } from '../../layouts/public-shell';

/** Recover and signup, until self-service arrives: who to ask instead. */
export function UnavailableAccountAction({ title, children }: { title: string; children: string }) {
  return (
    <PublicShell>
      <DocumentTitle title={title} />
      <Typography component="h1" variant="h5" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Typography color="textSecondary" sx={{ mb: 3 }}>
        {children}
      </Typography>
      <Button component={Link} to="/" variant="contained" startIcon={<ArrowBack />}>
        Retour à la connexion
      </Button>
    </PublicShell>
  );
}
