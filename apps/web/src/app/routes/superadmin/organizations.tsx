import { BROKER_SORT_COLUMNS } from '@flotte/contract';
import AddOutlined from '@mui/icons-material/AddOutlined';
import LoginOutlined from '@mui/icons-material/LoginOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { lazyComponent } from '../../../components/lazy-component';
import { OpenedOnce } from '../../../components/register/lazy-dialog';
import { showActionError } from '../../../components/register/register-actions';
import { RegisterScreen, RegisterToolbar } from '../../../components/register/register-layout';
import { RegisterTable } from '../../../components/register/register-table';
import { SearchField } from '../../../components/register/search-field';
import { useRegisterList } from '../../../components/register/use-register-list';
import { brokerOrganizationsSource, type BrokerRow } from '../../../features/broker/api/broker-api';
import { BROKER_ORGANIZATIONS_TABLE } from '../../../features/broker/components/broker-organizations-table';
import { BrokerExportButton } from '../../../features/broker/components/broker-export-button';
import { BrokerPageHeader } from '../../../features/broker/components/broker-page-header';
import { useCurrentUser } from '../../../lib/auth-store';
import { useLoggedOutlet } from '../../../lib/logged-outlet';
import { plural } from '../../../lib/format';

// Fetched when first opened.
const CreateOrganizationDialog = lazyComponent(() =>
  import('../../../features/broker/components/create-organization-dialog').then((module) => module.CreateOrganizationDialog),
);
const OrganizationMembersDialog = lazyComponent(() =>
  import('../../../features/broker/components/organization-members-dialog').then((module) => module.OrganizationMembersDialog),
);

const TEXTS = { title: 'Gestion organisations', add: 'Créer une organisation' };

/** /superadmin/organization: the broker's client organizations side by side (issue 16, decision 039). */
export default function SuperadminOrganizationsRoute() {
  const me = useCurrentUser();
  const allowed = me !== null && (me.roles.includes('SUPERADMIN') || me.roles.includes('ROOT'));
  if (!allowed) {
    return (
      <RegisterScreen>
        <DocumentTitle title={TEXTS.title} />
        <Alert severity="warning">Cette page est réservée aux superadmins de l’environnement.</Alert>
      </RegisterScreen>
    );
  }
  return <BrokerOrganizations environment={me.currentEnvironmentUser?.environment.uuid} currentOrganization={me.currentOrganizationUser?.organization.uuid} />;
}

function BrokerOrganizations({ environment, currentOrganization }: { environment: string | undefined; currentOrganization: string | undefined }) {
  const list = useRegisterList({
    api: brokerOrganizationsSource,
    sortColumns: BROKER_SORT_COLUMNS,
    defaultSort: 'title',
    // The superadmin's current environment reaches the API without entering the URL.
    filters: { environment: environment ?? '' },
  });
  const [creating, setCreating] = useState(false);
  const [members, setMembers] = useState<BrokerRow | null>(null);
  const layout = useLoggedOutlet();
  const navigate = useNavigate();
  // A superadmin's switch loads the whole app again (SPEC 4), here on the organization's dashboard
  // (« Ouvrir ») or on its « Membres » section (« Gérer les membres »).
  const open = (organization: BrokerRow, at = '/dashboard') => {
    if (organization.uuid === currentOrganization) void navigate(at);
    else void layout?.switchOrganization(organization.uuid, { reloadAt: at }).catch((error: unknown) => showActionError(error));
  };

  return (
    <RegisterScreen>
      <BrokerPageHeader
        title={TEXTS.title}
        summary={!list.known ? undefined : list.search ? plural(list.total, 'organisation trouvée', 'organisations trouvées') : plural(list.total, 'organisation cliente', 'organisations clientes')}
        action={
          <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setCreating(true)} onMouseEnter={CreateOrganizationDialog.preload} onFocus={CreateOrganizationDialog.preload}>
            {TEXTS.add}
          </Button>
        }
      />
      <RegisterToolbar>
        <SearchField {...list.searchField} label="Rechercher une organisation" placeholder="Nom de l'organisation" />
        <BrokerExportButton query={list.apiQuery} />
      </RegisterToolbar>
      <RegisterTable
        {...BROKER_ORGANIZATIONS_TABLE}
        {...list.table}
        rowActions={(organization) => [
          { label: 'Ouvrir', icon: <LoginOutlined fontSize="small" />, onClick: () => open(organization) },
          // The registers' « Voir » icon: the same module as theirs, kept in their shared chunk.
          { label: 'Membres', icon: <VisibilityOutlined fontSize="small" />, onClick: () => setMembers(organization) },
        ]}
        empty={{ text: 'Aucune organisation dans votre environnement. Créez la première.' }}
      />
      <Typography variant="body2" color="textSecondary" sx={{ mt: -1.5 }}>
        Période en cours : celle qui contient aujourd’hui. S/P = coût des sinistres depuis son début ÷ primes acquises au prorata des jours écoulés ;
        fréquence = sinistres de la période ÷ véhicules à son début ; demi-diff. = (parc aujourd’hui − parc au début) ÷ 2 × prime par véhicule, en euros.
        Couleurs : vert sous la limite, orange à moins de 10 points, rouge au-dessus. Activité : dernière modification des registres (véhicules, conducteurs, sinistres).
      </Typography>
      <OpenedOnce open={creating} onClose={() => setCreating(false)}>
        <CreateOrganizationDialog open={creating} onClose={() => setCreating(false)} environment={environment} />
      </OpenedOnce>
      {members ? (
        <OpenedOnce open onClose={() => setMembers(null)}>
          <OrganizationMembersDialog organization={members} onManage={() => open(members, '/parameters#membres')} onClose={() => setMembers(null)} />
        </OpenedOnce>
      ) : null}
    </RegisterScreen>
  );
}
