import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { InsuranceIntermediary } from '@flotte/contract';
import { useState } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { ResponsiveTable } from '../../../components/responsive-table';
import { FactList, SectionCard } from '../../../components/section-card';
import { useCurrentUser } from '../../../lib/auth-store';
import { formatDate } from '../../../lib/format';
import { isAdministrator } from '../../../lib/permissions';
import { useCurrentIntermediary, useIntermediaries } from '../api/get-intermediaries';

const IntermediaryForm = lazyComponent(() => import('./intermediary-form').then((m) => m.IntermediaryForm));

const mail = (address: string) => <Link href={`mailto:${address}`}>{address}</Link>;

function History({ intermediaries, currentUuid }: { intermediaries: readonly InsuranceIntermediary[]; currentUuid: string | undefined }) {
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Typography component="h3" variant="subtitle2" sx={{ fontWeight: 700 }}>
        Historique
      </Typography>
      <ResponsiveTable
        label="Historique des intermédiaires"
        rows={intermediaries}
        rowKey={(i) => i.uuid}
        title={{
          label: 'Intermédiaire',
          value: (i) => (
            <>
              {i.name}
              {i.uuid === currentUuid ? (
                <>
                  {' '}
                  <Typography component="span" variant="caption" color="success.dark" sx={{ fontWeight: 700 }}>
                    (en fonction)
                  </Typography>
                </>
              ) : null}
            </>
          ),
        }}
        columns={[
          { label: 'Contact', value: (i) => `${i.contactFirstName} ${i.contactLastName}` },
          { label: 'E-mail de production', value: (i) => i.productionEmail },
          { label: 'Depuis le', value: (i) => formatDate(i.startDate) },
        ]}
      />
    </Box>
  );
}

/** The intermediary in charge (told of the fleet's entries and exits) and those before; administrators name a new one. */
export function IntermediarySection() {
  const user = useCurrentUser();
  const current = useCurrentIntermediary();
  const history = useIntermediaries();
  const [adding, setAdding] = useState(false);
  const admin = isAdministrator(user);
  const loaded = current.isSuccess && history.isSuccess;

  const action =
    admin && !adding && loaded ? (
      <Button variant="outlined" onClick={() => setAdding(true)} onPointerEnter={IntermediaryForm.preload} onFocus={IntermediaryForm.preload}>
        Nouvel intermédiaire
      </Button>
    ) : null;

  return (
    <SectionCard
      id="intermediaire"
      title="Intermédiaire"
      description="Votre intermédiaire d'assurance : son e-mail de production reçoit les entrées et sorties de véhicules de la flotte"
      action={action}
    >
      {current.isPending || history.isPending ? (
        <Box aria-busy="true">
          <Skeleton width="50%" />
          <Skeleton width="70%" />
        </Box>
      ) : current.isError || history.isError ? (
        <Alert severity="error">Impossible de charger l'intermédiaire. Rechargez la page pour réessayer.</Alert>
      ) : (
        <>
          {adding ? <IntermediaryForm onDone={() => setAdding(false)} /> : null}
          {current.data ? (
            <FactList
              facts={[
                ['Intermédiaire en fonction', current.data.name],
                ['Contact', `${current.data.contactFirstName} ${current.data.contactLastName}`],
                ['E-mail du contact', mail(current.data.email)],
                ['E-mail de production', mail(current.data.productionEmail)],
                ['Depuis le', formatDate(current.data.startDate)],
              ]}
            />
          ) : (
            <Typography variant="body2" color="textSecondary">
              Aucun intermédiaire en fonction : les entrées et sorties de véhicules ne sont signalées à personne.
            </Typography>
          )}
          {history.data.length > 0 ? <History intermediaries={history.data} currentUuid={current.data?.uuid} /> : null}
        </>
      )}
    </SectionCard>
  );
}
