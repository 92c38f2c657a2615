import BusinessOutlined from '@mui/icons-material/BusinessOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { SectionCard } from '../../../components/section-card';
import { accountOrganizationsQueryOptions } from '../api/account';

const ROLE_LABELS = { ADMIN: 'Administrateur', USER: 'Utilisateur' } as const;

/** « Mes organisations » of /account: where the user belongs, with their role there (read only). */
export function OrganizationsSection() {
  const organizations = useQuery(accountOrganizationsQueryOptions());
  return (
    <SectionCard id="organisations" title="Mes organisations" description="Les organisations dont vous êtes membre et votre rôle dans chacune.">
      {organizations.isPending ? (
        <Typography color="textSecondary">Chargement de vos organisations…</Typography>
      ) : organizations.isError ? (
        <Alert severity="error">Vos organisations n’ont pas pu être chargées. Rechargez la page.</Alert>
      ) : organizations.data.data.length === 0 ? (
        <Typography color="textSecondary">Vous n’êtes membre d’aucune organisation.</Typography>
      ) : (
        <List disablePadding aria-label="Mes organisations">
          {organizations.data.data.map((organization) => (
            <ListItem key={organization.uuid} divider sx={{ px: 0 }}>
              <ListItemIcon sx={{ minWidth: 40 }}>
                <BusinessOutlined />
              </ListItemIcon>
              <ListItemText
                primary={
                  <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                    {organization.title}
                    {organization.current && <Chip size="small" variant="outlined" label="Organisation courante" />}
                  </Box>
                }
                secondary={organization.role ? ROLE_LABELS[organization.role] : undefined}
              />
            </ListItem>
          ))}
        </List>
      )}
    </SectionCard>
  );
}
