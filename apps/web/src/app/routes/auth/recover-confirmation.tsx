import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { PublicShell } from '../../layouts/public-shell';

/** /recover/confirmation: the password is changed; every session of the account has ended. */
export default function RecoverConfirmationRoute() {
  return (
    <PublicShell>
      <DocumentTitle title="Mot de passe modifié" />
      <Box sx={{ display: 'grid', gap: 2, justifyItems: 'start' }}>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
          <CheckCircleOutlined color="success" fontSize="large" />
          <Typography component="h1" variant="h5">
            Mot de passe modifié
          </Typography>
        </Box>
        <Typography>Votre nouveau mot de passe est enregistré. Par sécurité, vos sessions ouvertes sur d’autres appareils ont été fermées.</Typography>
        <Button component={Link} to="/" variant="contained">
          Se connecter
        </Button>
      </Box>
    </PublicShell>
  );
}
