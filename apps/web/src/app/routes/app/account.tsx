import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { bestRoleLabel } from '@flotte/contract';
import { DocumentTitle } from '../../../components/document-title';
import { PageLoader } from '../../../components/page-loader';
import { AvatarSection } from '../../../features/account/components/avatar-section';
import { DeleteAccountSection } from '../../../features/account/components/delete-account-section';
import { EmailConfirmation } from '../../../features/account/components/email-confirmation';
import { EmailSection } from '../../../features/account/components/email-section';
import { OrganizationsSection } from '../../../features/account/components/organizations-section';
import { PasswordSection, ProfileSection } from '../../../features/account/components/profile-section';
import { SessionsSection } from '../../../features/account/components/sessions-section';
import { LazyTwoFactorSection } from '../../../features/account/components/lazy-two-factor-section';
import { useCurrentUser } from '../../../lib/auth-store';

/**
 * /account, « Paramètres compte » (issue 15, decision 036): one SectionCard per subject, each its
 * own component — a new subject is one line below.
 */
export default function AccountRoute() {
  const user = useCurrentUser();
  if (!user) return <PageLoader />;
  return (
    <Box sx={{ display: 'grid', gap: 3, maxWidth: 760 }}>
      <DocumentTitle title="Paramètres compte" />
      <Typography component="h1" variant="h4">
        Paramètres compte
      </Typography>
      <EmailConfirmation />
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
      <ProfileSection user={user} />
      <AvatarSection user={user} />
      <EmailSection user={user} />
      <PasswordSection user={user} />
      <LazyTwoFactorSection key={`totp-${user.uuid}`} />
      <SessionsSection />
      <OrganizationsSection />
      <DeleteAccountSection user={user} />
    </Box>
  );
}
