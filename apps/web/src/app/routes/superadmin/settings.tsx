import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { DocumentTitle } from '../../../components/document-title';
import { PageLoader } from '../../../components/page-loader';
import { SectionCard } from '../../../components/section-card';
import { totpStatusQuery } from '../../../features/account/api/totp';
import { AccountForm } from '../../../features/account/components/account-form';
import { AvatarPicker } from '../../../features/account/components/avatar-section';
import { AlertDigestSection } from '../../../features/environment-settings/components/alert-digest-section';
import { EnvironmentForm } from '../../../features/environment-settings/components/environment-form';
import { LogoSection } from '../../../features/environment-settings/components/logo-section';
import { PublicCardSection } from '../../../features/environment-settings/components/public-card-section';
import { TotpRequirementSection } from '../../../features/environment-settings/components/totp-requirement-section';
import { useCurrentEnvironment } from '../../../features/support/api/get-current-environment';
import { SuperadminCard } from '../../../features/support/components/superadmin-card';
import { useCurrentUser } from '../../../lib/auth-store';

const TITLE = 'Paramètres';

/**
 * /superadmin/settings (issue 16, decision 040): the environment of the signed-in superadmin, one
 * SectionCard per subject — a new subject is one line in the list below.
 * The environment is the help dialog's query; the card is the help dialog's component, edited with
 * the account page's controls.
 */
export default function SuperadminSettingsRoute() {
  const me = useCurrentUser();
  const isRoot = me?.roles.includes('ROOT') ?? false;
  const allowed = me !== null && (isRoot || me.roles.includes('SUPERADMIN'));
  const environment = useCurrentEnvironment(allowed);
  const totp = useQuery({ ...totpStatusQuery, enabled: allowed && !isRoot });
  // A saved name, phone, description or photo: the help dialog's card (the caller may open it too) reads again.
  const queryClient = useQueryClient();
  const environmentUuid = environment.data?.uuid;
  const cardVersion = me ? [me.avatar?.url, me.firstName, me.lastName, me.description, me.phone].join('\n') : '';
  useEffect(() => {
    if (environmentUuid) void queryClient.invalidateQueries({ queryKey: ['environments', environmentUuid, 'superadmin'] });
  }, [queryClient, environmentUuid, cardVersion]);

  if (!me) return <PageLoader />;
  let body;
  if (!allowed) body = <Alert severity="warning">Cette page est réservée aux superadmins de l’environnement.</Alert>;
  else if (environment.isPending) body = <PageLoader label="Chargement des paramètres" />;
  else if (environment.isError) body = <Alert severity="error">Impossible de charger les paramètres de l’environnement. Réessayez dans un instant.</Alert>;
  else if (environment.data === null) body = <Alert severity="info">Vous n’êtes rattaché à aucun environnement.</Alert>;
  else {
    const current = environment.data;
    const card = { avatar: me.avatar, firstName: me.firstName, lastName: me.lastName, description: me.description, phone: me.phone };
    body = (
      <>
        <SectionCard id="environnement" title="Environnement" description="Le nom et les contacts de votre cabinet, vus par vos organisations clientes.">
          {/* Keyed by environment: a switched one starts a fresh form. */}
          <EnvironmentForm key={current.uuid} environment={current} />
        </SectionCard>
        <LogoSection environment={current} />
        <PublicCardSection preview={<SuperadminCard superadmin={card} />} photo={<AvatarPicker user={me} showAvatar={false} />}>
          {/* Keyed by user: a saved or switched user starts a fresh form. */}
          <AccountForm key={me.uuid} user={me} />
        </PublicCardSection>
        <TotpRequirementSection environment={current} isRoot={isRoot} ownTotpEnabled={totp.isError ? false : totp.data?.enabled} />
        <AlertDigestSection environmentUuid={current.uuid} />
      </>
    );
  }
  return (
    <Box sx={{ display: 'grid', gap: 3, maxWidth: 760 }}>
      <DocumentTitle title={TITLE} />
      <Typography component="h1" variant="h4">
        {TITLE}
      </Typography>
      {body}
    </Box>
  );
}
