import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { bestRoleLabel } from '@flotte/contract';
import { DocumentTitle } from '../../../components/document-title';
import { PageLoader } from '../../../components/page-loader';
import { AccountForm } from '../../../features/account/components/account-form';
import { PasswordForm } from '../../../features/account/components/password-form';
import { useCurrentUser } from '../../../lib/auth-store';

export default function AccountRoute() {
  const user = useCurrentUser();
  if (!user) return <PageLoader />;
  return (
    <Box sx={{ display: 'grid', gap: 3, maxWidth: 760 }}>
      <DocumentTitle title="Paramètres compte" />
      <Typography component="h1" variant="h4">
        Paramètres compte
      </Typography>
      <Card>
        <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
          <Avatar src={user.avatar?.url ?? undefined} alt="" aria-hidden sx={{ width: 56, height: 56, bgcolor: 'secondary.main' }}>
            {`${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase()}
          </Avatar>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="subtitle1" component="p" sx={{ fontWeight: 700 }}>
              {user.firstName} {user.lastName}
            </Typography>
            <Typography variant="body2" color="textSecondary" noWrap>
              {user.email} · {bestRoleLabel(user.roles)}
            </Typography>
          </Box>
        </CardContent>
      </Card>
      <Card>
        <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
          <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
            Informations personnelles
          </Typography>
          {/* Keyed by user: a saved or switched user starts a fresh form. */}
          <AccountForm key={user.uuid} user={user} />
        </CardContent>
      </Card>
      <Card>
        <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
          <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
            Mot de passe
          </Typography>
          <PasswordForm key={user.uuid} />
        </CardContent>
      </Card>
    </Box>
  );
}
