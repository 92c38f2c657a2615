import ArrowBack from '@mui/icons-material/ArrowBack';
import Button from '@mui/material/Button';
import { Link } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { Markdown } from '../../../components/markdown/markdown';
import CGU_TEXT from '../../../content/cgu.md?raw';
import { useCurrentUser } from '../../../lib/auth-store';
import { PublicShell } from '../../layouts/public-shell';

/** /cgu: the terms of use in force (content/cgu.md, version CGU_VERSION), for anyone, signed in or not. */
export default function CguRoute() {
  const user = useCurrentUser();
  return (
    <PublicShell maxWidth={860}>
      <DocumentTitle title="Conditions générales d’utilisation" />
      <Markdown source={CGU_TEXT} headingOffset={0} />
      <Button component={Link} to={user ? '/dashboard' : '/'} startIcon={<ArrowBack />} sx={{ mt: 2 }}>
        {user ? 'Retour au tableau de bord' : 'Retour à la connexion'}
      </Button>
    </PublicShell>
  );
}
