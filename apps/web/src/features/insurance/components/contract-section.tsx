import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatEuros, type InsuranceContract } from '@flotte/contract';
import { useState } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { FactList, SectionCard } from '../../../components/section-card';
import { useCurrentUser } from '../../../lib/auth-store';
import { formatDate } from '../../../lib/format';
import { isAdministrator } from '../../../lib/permissions';
import { useContracts } from '../api/get-contracts';

const ContractForm = lazyComponent(() => import('./contract-form').then((m) => m.ContractForm));

function GuaranteesTable({ contract }: { contract: InsuranceContract }) {
  if (contract.guarantees.length === 0) {
    return (
      <Typography variant="body2" color="textSecondary">
        Aucune garantie renseignée.
      </Typography>
    );
  }
  return (
    <Table size="small" aria-label="Garanties couvertes">
      <TableHead>
        <TableRow>
          <TableCell component="th" scope="col">
            Garantie
          </TableCell>
          <TableCell component="th" scope="col" align="right">
            Franchise
          </TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {contract.guarantees.map((g) => (
          <TableRow key={g.guaranteeUuid}>
            <TableCell>{g.label}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {g.deductible === 0 ? 'Sans franchise' : formatEuros(g.deductible)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function ContractHistory({ versions }: { versions: readonly InsuranceContract[] }) {
  if (versions.length === 0) return null;
  return (
    <Box component="details">
      <Box component="summary" sx={{ cursor: 'pointer', typography: 'body2', fontWeight: 600 }}>
        Versions précédentes ({versions.length})
      </Box>
      <Box component="ul" sx={{ m: 0, mt: 1, pl: 3, display: 'grid', gap: 0.5 }}>
        {versions.map((v) => (
          <Typography component="li" variant="body2" key={v.uuid}>
            Du {formatDate(v.startDate)} au {formatDate(v.renewalDate)} : {v.insurer}, police {v.policyNumber}, {formatEuros(v.annualPremium)} par an
            <Typography component="span" variant="body2" color="textSecondary">
              {' '}
              (enregistrée le {formatDate(v.createdAt)})
            </Typography>
          </Typography>
        ))}
      </Box>
    </Box>
  );
}

/** The fleet contract in force, its guarantees and earlier versions; administrators edit it. */
export function ContractSection() {
  const user = useCurrentUser();
  const contracts = useContracts();
  const [editing, setEditing] = useState(false);
  const admin = isAdministrator(user);
  const [current, ...previous] = contracts.data ?? [];

  const action =
    admin && !editing && contracts.isSuccess ? (
      <Button variant="outlined" onClick={() => setEditing(true)} onPointerEnter={ContractForm.preload} onFocus={ContractForm.preload}>
        {current ? 'Modifier le contrat' : 'Renseigner le contrat'}
      </Button>
    ) : null;

  return (
    <SectionCard id="contrat" title="Contrat" description="Le contrat d'assurance de la flotte en vigueur et son historique" action={action}>
      {contracts.isPending ? (
        <Box aria-busy="true">
          <Skeleton width="60%" />
          <Skeleton width="40%" />
          <Skeleton width="50%" />
        </Box>
      ) : contracts.isError ? (
        <Alert severity="error">Impossible de charger le contrat. Rechargez la page pour réessayer.</Alert>
      ) : editing ? (
        <ContractForm current={current} onDone={() => setEditing(false)} />
      ) : current ? (
        <>
          <FactList
            facts={[
              ['Assureur', current.insurer],
              ['Numéro de police', current.policyNumber],
              ['Date de début', formatDate(current.startDate)],
              ['Échéance', formatDate(current.renewalDate)],
              ['Prime annuelle', formatEuros(current.annualPremium)],
            ]}
          />
          <GuaranteesTable contract={current} />
          <ContractHistory versions={previous} />
        </>
      ) : (
        <Typography variant="body2" color="textSecondary">
          Aucun contrat renseigné pour le moment.{admin ? '' : ' Un administrateur peut le renseigner.'}
        </Typography>
      )}
    </SectionCard>
  );
}
