import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { InsuranceIntermediary } from '@flotte/contract';
import { useState } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
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
      {/* A phone reads a list; the table from tablet width (focusable in case it scrolls sideways). */}
      <Box component="ul" aria-label="Historique des intermédiaires" sx={{ display: { xs: 'grid', sm: 'none' }, gap: 1.5, m: 0, p: 0, listStyle: 'none' }}>
        {intermediaries.map((i) => (
          <Box component="li" key={i.uuid} sx={{ borderTop: 1, borderColor: 'divider', pt: 1.5 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {i.name}
              {i.uuid === currentUuid ? ' (en fonction)' : ''}
            </Typography>
            <Typography variant="body2" color="textSecondary">
              Depuis le {formatDate(i.startDate)} · {i.contactFirstName} {i.contactLastName}
            </Typography>
            <Typography variant="body2" color="textSecondary" sx={{ overflowWrap: 'anywhere' }}>
              {i.productionEmail}
            </Typography>
          </Box>
        ))}
      </Box>
      <TableContainer tabIndex={0} sx={{ display: { xs: 'none', sm: 'block' } }}>
        <Table size="small" aria-label="Historique des intermédiaires">
          <TableHead>
            <TableRow>
              <TableCell component="th" scope="col">
                Intermédiaire
              </TableCell>
              <TableCell component="th" scope="col">
                Contact
              </TableCell>
              <TableCell component="th" scope="col">
                E-mail de production
              </TableCell>
              <TableCell component="th" scope="col">
                Depuis le
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {intermediaries.map((i) => (
              <TableRow key={i.uuid}>
                <TableCell>
                  {i.name}{' '}
                  {i.uuid === currentUuid ? (
                    <Typography component="span" variant="caption" color="success.dark" sx={{ fontWeight: 700 }}>
                      (en fonction)
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell>
                  {i.contactFirstName} {i.contactLastName}
                </TableCell>
                <TableCell>{i.productionEmail}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(i.startDate)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
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
