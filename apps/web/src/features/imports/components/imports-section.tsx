import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import type { ImportEntity, ImportRevert, ImportSummary } from '@flotte/contract';
import { useState } from 'react';
import { LazyConfirm, LazyConfirmDialog } from '../../../components/register/lazy-confirm-dialog';
import { ResponsiveTable } from '../../../components/responsive-table';
import { SectionCard } from '../../../components/section-card';
import { snackbar } from '../../../components/snackbar/snackbar';
import { useCurrentUser } from '../../../lib/auth-store';
import { isAdministrator } from '../../../lib/permissions';
import { formatCount, formatDateTime, plural } from '../../../lib/format';
import { useImports, useRevertImport } from '../api/imports-api';
import { RevertLeftList } from './revert-left-list';

/** The register an import wrote to, as the menu names it. */
export const IMPORT_REGISTER_LABELS: Record<ImportEntity, string> = { driver: 'Conducteurs', vehicule: 'Véhicules', sinister: 'Sinistres' };

/** Where an import stands, in words: « Annulé le 26/11/2026 à 15:10 ». */
export function importState(summary: ImportSummary): string {
  switch (summary.status) {
    case 'committed':
      return summary.revertibleUntil ? `Importé, annulable jusqu’au ${formatDateTime(summary.revertibleUntil)}` : 'Importé';
    case 'reverted':
      return summary.revertedAt ? `Annulé le ${formatDateTime(summary.revertedAt)}` : 'Annulé';
    case 'queued':
    case 'running':
      return `En cours (${summary.percent} %)`;
    case 'failed':
      return 'Échec : rien n’a été importé';
    case 'previewed':
      return 'Non importé (arrêté avant la confirmation)';
  }
}

const count = (key: keyof NonNullable<ImportSummary['counts']>) => (summary: ImportSummary) => (summary.counts ? formatCount(summary.counts[key]) : '—');

const describe = (summary: ImportSummary) => `${summary.fileName} du ${formatDateTime(summary.committedAt ?? summary.createdAt)}`;

/** Which rows a revert left as they were, and why. */
function RevertOutcome({ outcome }: { outcome: { summary: ImportSummary; result: ImportRevert } }) {
  const { summary, result } = outcome;
  return (
    <Alert severity={result.left.length > 0 ? 'warning' : 'success'}>
      Import {describe(summary)} annulé : {plural(result.restored, 'ligne rétablie', 'lignes rétablies')}.
      {result.left.length > 0 && (
        <>
          {' '}
          {plural(result.left.length, 'ligne laissée', 'lignes laissées')} telle{result.left.length > 1 ? 's' : ''} quelle{result.left.length > 1 ? 's' : ''} :
          <RevertLeftList left={result.left} />
        </>
      )}
    </Alert>
  );
}

/**
 * « Imports » of the /parameters page: the organization's spreadsheet imports, newest first —
 * when, who, which file into which register, what each did and where it stands. « Annuler
 * l'import » is offered while the server says it may be (`revertibleUntil`, 24 h after the
 * commit, by the server's clock), to the import's author and to administrators (the API answers
 * 403 to another member: a revert deletes what the import created). Everyone else reads.
 */
export function ImportsSection() {
  const imports = useImports();
  const user = useCurrentUser();
  const admin = isAdministrator(user);
  const mayRevert = (summary: ImportSummary) => summary.revertibleUntil !== null && (admin || (summary.author.uuid !== null && summary.author.uuid === user?.uuid));
  const revert = useRevertImport();
  const [asked, setAsked] = useState<{ open: boolean; summary?: ImportSummary }>({ open: false });
  const [outcome, setOutcome] = useState<{ summary: ImportSummary; result: ImportRevert } | null>(null);

  const confirm = async (summary: ImportSummary) => {
    let result: ImportRevert;
    try {
      result = await revert.mutateAsync(summary);
    } catch (error) {
      snackbar.show({ type: 'error', title: 'Erreur', description: error instanceof Error ? error.message : 'L’import n’a pas été annulé' });
      throw error;
    }
    setAsked((current) => ({ ...current, open: false }));
    setOutcome({ summary, result });
    snackbar.show({ type: 'success', title: 'Import annulé', description: plural(result.restored, 'ligne rétablie', 'lignes rétablies') });
  };

  const doomed = asked.summary;

  return (
    <SectionCard
      id="imports"
      title="Imports"
      description="Les derniers imports de fichiers CSV ou Excel dans les registres, du plus récent au plus ancien. Un import peut être annulé pendant 24 heures."
    >
      {outcome && <RevertOutcome outcome={outcome} />}
      {imports.isPending ? (
        <CircularProgress size={24} aria-label="Chargement des imports" />
      ) : imports.isError ? (
        <Alert severity="error">Les imports n’ont pas pu être chargés : {imports.error.message}</Alert>
      ) : imports.data.length === 0 ? (
        <Alert severity="info">Aucun import pour l’instant : le bouton « Importer » des pages Conducteurs, Véhicules et Sinistres lit un fichier CSV ou Excel.</Alert>
      ) : (
        <ResponsiveTable
          label="Historique des imports"
          rows={imports.data}
          rowKey={(summary) => summary.importId}
          // Who, under when: six columns of figures and the way back fit in the page's width.
          title={{
            label: 'Date',
            value: (summary) => (
              <>
                {formatDateTime(summary.committedAt ?? summary.createdAt)}
                <Box component="span" sx={{ display: 'block', color: 'text.secondary', fontWeight: 'normal' }}>
                  par {summary.author.name}
                </Box>
              </>
            ),
          }}
          columns={[
            {
              label: 'Fichier',
              value: (summary) => (
                <>
                  <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
                    {summary.fileName}
                  </Box>
                  <Box component="span" sx={{ display: 'block', color: 'text.secondary' }}>
                    {IMPORT_REGISTER_LABELS[summary.entity]}
                  </Box>
                </>
              ),
            },
            { label: 'Créés', numeric: true, value: count('created') },
            { label: 'Modifiés', numeric: true, value: count('updated') },
            { label: 'Inchangés', numeric: true, value: count('unchanged') },
            { label: 'Ignorés', numeric: true, value: count('skipped') },
            { label: 'Sortis', numeric: true, value: count('exited') },
            {
              label: 'État',
              // The way back sits with the state it changes: a phone's card keeps its whole width for the figures.
              value: (summary) => (
                <Box sx={{ display: 'grid', gap: 0.75, justifyItems: 'start' }}>
                  <span>{importState(summary)}</span>
                  {mayRevert(summary) && (
                    <Button
                      size="small"
                      variant="outlined"
                      sx={{ whiteSpace: 'nowrap' }}
                      aria-label={`Annuler l’import ${describe(summary)}`}
                      onClick={() => setAsked({ open: true, summary })}
                      onMouseEnter={LazyConfirm.preload}
                      onFocus={LazyConfirm.preload}
                    >
                      Annuler l’import
                    </Button>
                  )}
                </Box>
              ),
            },
          ]}
        />
      )}
      <LazyConfirmDialog
        open={asked.open}
        title={doomed ? `Annuler l’import ${describe(doomed)} ?` : ''}
        description="Ce qu’il a créé est supprimé, ce qu’il a modifié ou sorti de la flotte reprend ses valeurs d’avant. Les lignes modifiées depuis l’import sont laissées telles quelles."
        confirmLabel="Annuler l’import"
        cancelLabel="Garder l’import"
        onConfirm={() => (doomed ? confirm(doomed) : undefined)}
        onClose={() => setAsked((current) => ({ ...current, open: false }))}
      />
    </SectionCard>
  );
}
