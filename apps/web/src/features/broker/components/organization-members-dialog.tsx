import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { LoadingContent } from '../../../components/register/lazy-dialog';
import { useOrganizationMembers } from '../api/broker-api';
import { memberRoleLabel } from '@flotte/contract';

export type OrganizationMembersDialogProps = {
  organization: { uuid: string; title: string };
  /** Opens the organization's « Membres » section (/parameters), where roles, removals and invitations are managed. */
  onManage: () => void;
  onClose: () => void;
};

/**
 * « Membres »: who belongs to one client organization, and the way to manage them: the
 * organization's own « Membres » section, which its superadmin uses as its administrators do.
 */
export function OrganizationMembersDialog({ organization, onManage, onClose }: OrganizationMembersDialogProps) {
  const members = useOrganizationMembers(organization.uuid);
  const rows = members.data?.data ?? [];
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="organization-members-title">
      <DialogTitle id="organization-members-title">Membres de {organization.title}</DialogTitle>
      <DialogContent>
        {members.isPending ? <LoadingContent label="Chargement des membres…" /> : null}
        {members.error ? <Alert severity="error">Impossible de charger les membres : {members.error.message}</Alert> : null}
        {members.data && rows.length === 0 ? <Typography>Aucun membre pour le moment.</Typography> : null}
        {rows.length > 0 ? (
          <List aria-label={`Membres de ${organization.title}`} dense>
            {rows.map((link) => (
              <ListItem key={link.uuid} disableGutters>
                <ListItemText primary={`${link.user.firstName} ${link.user.lastName}`} secondary={`${link.user.email} · ${memberRoleLabel(link.role)}`} />
              </ListItem>
            ))}
          </List>
        ) : null}
        {members.data && members.data.total > rows.length ? (
          <Typography variant="body2" color="textSecondary">
            {rows.length} premiers membres sur {members.data.total}.
          </Typography>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Fermer</Button>
        <Button variant="contained" onClick={onManage}>
          Gérer les membres
        </Button>
      </DialogActions>
    </Dialog>
  );
}
