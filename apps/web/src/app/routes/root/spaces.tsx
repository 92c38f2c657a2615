import type { RootSpace } from '@flotte/contract';
import AddOutlined from '@mui/icons-material/AddOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Pagination from '@mui/material/Pagination';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { SearchField } from '../../../components/register/search-field';
import { showActionError } from '../../../components/register/register-actions';
import { snackbar } from '../../../components/snackbar/snackbar';
import { BrokerPageHeader } from '../../../features/broker/components/broker-page-header';
import { useJoinSpace, useQuitSpace, useRootSpaces } from '../../../features/root/api/root-api';
import { GuaranteesSection } from '../../../features/root/components/guarantees-section';
import { CreateSpaceDialog, EditSpaceDialog } from '../../../features/root/components/space-form-dialog';
import { SpacesTable } from '../../../features/root/components/spaces-table';
import { TiersDialog } from '../../../features/root/components/tiers-dialog';
import { useCurrentUser } from '../../../lib/auth-store';
import { plural } from '../../../lib/format';

const PAGE_SIZE = 20;

/** /root/spaces (issue 17, decision 043): the operator's spaces, their tiers, and the guarantees list. ROOT only: the root layout guards it. */
export default function RootSpacesRoute() {
  const me = useCurrentUser();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const spaces = useRootSpaces({ search, page, limit: PAGE_SIZE });
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<RootSpace | null>(null);
  const [tiers, setTiers] = useState<RootSpace | null>(null);
  const join = useJoinSpace();
  const quit = useQuitSpace();

  const onJoin = async (space: RootSpace) => {
    try {
      await join.mutateAsync(space.uuid);
      // The whole app loads again as a member of the space, on its organizations (SPEC 4).
      window.location.assign('/superadmin/organization');
    } catch (error) {
      showActionError(error, "Erreur en rejoignant l'espace");
    }
  };
  const onQuit = async (space: RootSpace) => {
    try {
      await quit.mutateAsync(space.uuid);
      snackbar.show({ type: 'success', title: 'Espace quitté', description: `« ${space.title} »` });
      window.location.assign('/root/spaces');
    } catch (error) {
      showActionError(error, "Erreur en quittant l'espace");
    }
  };

  const total = spaces.data?.total ?? 0;
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <BrokerPageHeader
        title="Espaces"
        summary={spaces.data ? (search ? plural(total, 'espace trouvé', 'espaces trouvés') : plural(total, 'espace')) : undefined}
        action={
          <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setCreating(true)}>
            Créer un espace
          </Button>
        }
      />
      <SearchField
        value={search}
        onChange={(value) => {
          setSearch(value);
          setPage(1);
        }}
        label="Rechercher un espace"
        placeholder="Nom de l'espace"
      />
      {spaces.error ? <Alert severity="error">{spaces.error.message}</Alert> : null}
      {spaces.data && spaces.data.data.length === 0 ? (
        <Typography>{search ? 'Aucun espace ne correspond à la recherche.' : 'Aucun espace. Créez le premier.'}</Typography>
      ) : null}
      {spaces.data && spaces.data.data.length > 0 ? (
        <SpacesTable
          spaces={spaces.data.data}
          actions={{ onEdit: setEditing, onTiers: setTiers, onJoin: (s) => void onJoin(s), onQuit: (s) => void onQuit(s), current: me?.currentEnvironmentUser?.environment.uuid }}
        />
      ) : null}
      {spaces.data && spaces.data.nbOfPages > 1 ? (
        <Pagination count={spaces.data.nbOfPages} page={page} onChange={(_, next) => setPage(next)} sx={{ justifySelf: 'center' }} />
      ) : null}
      <GuaranteesSection />
      <CreateSpaceDialog open={creating} onClose={() => setCreating(false)} />
      {editing ? <EditSpaceDialog space={editing} onClose={() => setEditing(null)} /> : null}
      {tiers ? <TiersDialog space={tiers} onClose={() => setTiers(null)} /> : null}
    </Box>
  );
}
