import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { MEMBER_ROLE_CHOICES, memberRoleLabel, type Invitation, type MemberRole, type OrganizationUser } from '@flotte/contract';
import { useState } from 'react';
import { menuItems } from '../../../components/form/menu-items';
import { lazyComponent } from '../../../components/lazy-component';
import { LazyConfirmDialog } from '../../../components/register/lazy-confirm-dialog';
import { ResponsiveTable } from '../../../components/responsive-table';
import { SectionCard } from '../../../components/section-card';
import { snackbar } from '../../../components/snackbar/snackbar';
import { ApiError } from '../../../lib/api-error';
import { useCurrentUser } from '../../../lib/auth-store';
import { formatDate } from '../../../lib/format';
import { isAdministrator } from '../../../lib/permissions';
import { useCancelInvitation, useChangeRole, useInvitations, useMembers, useRemoveMember, useResendInvitation, useResetTwoFactor } from '../api/members';

const InviteDialog = lazyComponent(() => import('./invite-dialog').then((m) => m.InviteDialog));

const fullName = (link: OrganizationUser) => `${link.user.firstName} ${link.user.lastName}`;
const failed = (title: string, error: unknown, fallback: string) =>
  snackbar.show({ type: 'error', title, description: error instanceof ApiError && error.status !== 0 ? error.message : fallback });

/** A member's role: a select for an administrator, its label for the others. */
function RoleCell({ link, editable }: { link: OrganizationUser; editable: boolean }) {
  const change = useChangeRole();
  if (!editable) return <>{memberRoleLabel(link.role)}</>;
  const onChange = async (role: MemberRole) => {
    try {
      await change.mutateAsync({ link: link.uuid, role });
      snackbar.show({ type: 'success', title: 'Rôle modifié', description: `${fullName(link)} est désormais ${memberRoleLabel(role).toLowerCase()}.` });
    } catch (error) {
      failed('Rôle inchangé', error, 'Le rôle n’a pas pu être modifié. Réessayez.');
    }
  };
  return (
    <TextField
      select
      size="small"
      value={link.role}
      disabled={change.isPending}
      onChange={(event) => void onChange(event.target.value as MemberRole)}
      slotProps={{ htmlInput: { 'aria-label': `Rôle de ${fullName(link)}` } }}
      sx={{ minWidth: 170 }}
    >
      {menuItems(MEMBER_ROLE_CHOICES)}
    </TextField>
  );
}

function PendingInvitations({ invitations }: { invitations: readonly Invitation[] }) {
  const resend = useResendInvitation();
  const cancel = useCancelInvitation();
  const [cancelling, setCancelling] = useState<Invitation | null>(null);
  const [now] = useState(() => Date.now());

  const onResend = async (invitation: Invitation) => {
    try {
      await resend.mutateAsync(invitation.uuid);
      snackbar.show({ type: 'success', title: 'Invitation renvoyée', description: `Un nouveau lien, valable 7 jours, a été envoyé à ${invitation.email}.` });
    } catch (error) {
      failed('Invitation non renvoyée', error, 'L’invitation n’a pas pu être renvoyée. Réessayez.');
    }
  };
  const onCancel = async () => {
    if (!cancelling) return;
    try {
      await cancel.mutateAsync(cancelling.uuid);
      snackbar.show({ type: 'success', title: 'Invitation annulée', description: `Le lien envoyé à ${cancelling.email} ne fonctionne plus.` });
      setCancelling(null);
    } catch (error) {
      failed('Invitation non annulée', error, 'L’invitation n’a pas pu être annulée. Réessayez.');
      throw error;
    }
  };

  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Typography component="h3" variant="subtitle2" sx={{ fontWeight: 700 }}>
        Invitations en attente
      </Typography>
      {invitations.length === 0 ? (
        <Typography variant="body2" color="textSecondary">
          Aucune invitation en attente.
        </Typography>
      ) : (
        <ResponsiveTable
          label="Invitations en attente"
          rows={invitations}
          rowKey={(i) => i.uuid}
          title={{ label: 'Adresse invitée', value: (i) => <Box component="span" sx={{ overflowWrap: 'anywhere' }}>{i.email}</Box> }}
          columns={[
            { label: 'Rôle', value: (i) => memberRoleLabel(i.role) },
            { label: 'Invité par', value: (i) => (i.invitedBy ? `${i.invitedBy.firstName} ${i.invitedBy.lastName}` : '—') },
            {
              label: 'Validité',
              value: (i) =>
                Date.parse(i.expiresAt) < now ? (
                  <Typography component="span" variant="body2" color="error.dark" sx={{ fontWeight: 700 }}>
                    Expirée
                  </Typography>
                ) : (
                  `Jusqu’au ${formatDate(i.expiresAt)}`
                ),
            },
          ]}
          actions={{
            label: 'Actions',
            render: (i) => (
              <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
                <Button size="small" onClick={() => void onResend(i)} disabled={resend.isPending} aria-label={`Renvoyer l’invitation de ${i.email}`}>
                  Renvoyer
                </Button>
                <Button size="small" color="error" onClick={() => setCancelling(i)} aria-label={`Annuler l’invitation de ${i.email}`}>
                  Annuler
                </Button>
              </Box>
            ),
          }}
        />
      )}
      <LazyConfirmDialog
        open={cancelling !== null}
        title={`Annuler l’invitation de ${cancelling?.email ?? ''} ?`}
        description="Le lien envoyé ne fonctionnera plus. Vous pourrez inviter cette adresse à nouveau."
        confirmLabel="Annuler l’invitation"
        cancelLabel="Garder"
        onConfirm={onCancel}
        onClose={() => setCancelling(null)}
      />
    </Box>
  );
}

/**
 * The current organization's members (decision 034). Every member sees who is in it and their
 * role; its administrators change roles, remove members, invite by e-mail and follow the pending
 * invitations. The API keeps the last administrator (409), which the snackbar then explains.
 */
export function MembersSection() {
  const user = useCurrentUser();
  const organizationUuid = user?.currentOrganizationUser?.organization.uuid ?? '';
  const admin = isAdministrator(user) && organizationUuid !== '';
  const members = useMembers(organizationUuid);
  const invitations = useInvitations(organizationUuid, admin);
  const remove = useRemoveMember();
  const [removing, setRemoving] = useState<OrganizationUser | null>(null);
  // The API tells a member's second factor (true or false) only to those who may turn it off.
  const resetTwoFactor = useResetTwoFactor();
  const [resetting, setResetting] = useState<OrganizationUser | null>(null);
  const canReset = (link: OrganizationUser) => link.user.twoFactor === true && link.user.uuid !== user?.uuid;
  const [inviting, setInviting] = useState(false);

  if (!organizationUuid) return null;

  const onRemove = async () => {
    if (!removing) return;
    try {
      await remove.mutateAsync(removing.uuid);
      snackbar.show({ type: 'success', title: 'Membre retiré', description: `${fullName(removing)} n’a plus accès à l’organisation.` });
      setRemoving(null);
    } catch (error) {
      failed('Membre non retiré', error, 'Le membre n’a pas pu être retiré. Réessayez.');
      throw error;
    }
  };

  const onResetTwoFactor = async () => {
    if (!resetting) return;
    try {
      await resetTwoFactor.mutateAsync(resetting.uuid);
      snackbar.show({
        type: 'success',
        title: 'Double authentification désactivée',
        description: `${fullName(resetting)} se connecte avec son mot de passe et en est averti par e-mail.`,
      });
      setResetting(null);
    } catch (error) {
      failed('Double authentification inchangée', error, 'La double authentification n’a pas pu être désactivée. Réessayez.');
      throw error;
    }
  };

  const action = admin ? (
    <Button variant="outlined" onClick={() => setInviting(true)} onPointerEnter={InviteDialog.preload} onFocus={InviteDialog.preload}>
      Inviter un membre
    </Button>
  ) : null;

  return (
    <SectionCard
      id="membres"
      title="Membres"
      description={admin ? 'Les personnes qui ont accès à l’organisation, leur rôle, et vos invitations en attente' : 'Les personnes qui ont accès à l’organisation et leur rôle'}
      action={action}
    >
      {members.isPending ? (
        <Box aria-busy="true">
          <Skeleton width="60%" />
          <Skeleton width="80%" />
        </Box>
      ) : members.isError ? (
        <Alert severity="error">Impossible de charger les membres. Rechargez la page pour réessayer.</Alert>
      ) : (
        <Box sx={{ display: 'grid', gap: 3 }}>
          <ResponsiveTable
            label="Membres de l’organisation"
            rows={members.data.data}
            rowKey={(link) => link.uuid}
            title={{
              label: 'Nom',
              value: (link) => (
                <>
                  {fullName(link)}
                  {link.user.uuid === user?.uuid ? (
                    <Typography component="span" variant="caption" color="textSecondary">
                      {' '}
                      (vous)
                    </Typography>
                  ) : null}
                </>
              ),
            }}
            columns={[
              { label: 'E-mail', value: (link) => <Box component="span" sx={{ overflowWrap: 'anywhere' }}>{link.user.email}</Box> },
              { label: 'Rôle', value: (link) => <RoleCell link={link} editable={admin} /> },
            ]}
            actions={
              admin
                ? {
                    label: 'Actions',
                    render: (link) => (
                      // On a phone, one above the other: the card keeps its width for the name and e-mail.
                      <Box sx={{ display: 'flex', gap: { xs: 0, sm: 1 }, flexDirection: { xs: 'column', sm: 'row' }, alignItems: 'flex-end', justifyContent: 'flex-end' }}>
                        {canReset(link) ? (
                          <Button size="small" onClick={() => setResetting(link)} aria-label={`Désactiver la double authentification de ${fullName(link)}`}>
                            Désactiver la 2FA
                          </Button>
                        ) : null}
                        <Button size="small" color="error" onClick={() => setRemoving(link)} aria-label={`Retirer ${fullName(link)}`}>
                          Retirer
                        </Button>
                      </Box>
                    ),
                  }
                : undefined
            }
          />
          {admin ? (
            invitations.isPending ? (
              <Skeleton width="50%" />
            ) : invitations.isError ? (
              <Alert severity="error">Impossible de charger les invitations en attente.</Alert>
            ) : (
              <PendingInvitations invitations={invitations.data.data} />
            )
          ) : null}
        </Box>
      )}
      <LazyConfirmDialog
        open={removing !== null}
        title={`Retirer ${removing ? fullName(removing) : ''} de l’organisation ?`}
        description="Cette personne n’aura plus accès aux véhicules, conducteurs, sinistres et documents de l’organisation. Vous pourrez l’inviter à nouveau."
        confirmLabel="Retirer"
        onConfirm={onRemove}
        onClose={() => setRemoving(null)}
      />
      <LazyConfirmDialog
        open={resetting !== null}
        title={`Désactiver la double authentification de ${resetting ? fullName(resetting) : ''} ?`}
        description="Pour un membre qui a perdu son application d’authentification et ses codes de secours. Ses sessions sont fermées ; il se connectera avec son seul mot de passe, puis pourra réactiver la double authentification depuis son compte. Il en est averti par e-mail."
        confirmLabel="Désactiver"
        onConfirm={onResetTwoFactor}
        onClose={() => setResetting(null)}
      />
      {inviting ? <InviteDialog onClose={() => setInviting(false)} /> : null}
    </SectionCard>
  );
}
