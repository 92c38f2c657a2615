import Download from '@mui/icons-material/Download';
import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { todayIso, type ImportCounts, type ImportEntity, type ImportMapping, type ImportMode, type ImportPreview, type ImportRevert, type ImportSummary, type ImportValidation } from '@flotte/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { LazyDateField } from '../../../components/lazy-date-field';
import { snackbar } from '../../../components/snackbar/snackbar';
import { formatDateTime } from '../../../lib/format';
import { invalidateAfterWrite, queryKeys } from '../../../lib/query-keys';
import { RevertLeftList } from './revert-left-list';
import { commitImport, downloadImportErrors, getImport, IMPORT_REGISTERS as REGISTER, revertImport, uploadImportFile, validateImport } from '../api/imports-api';

const STEPS = ['Fichier', 'Colonnes', 'Vérification', 'Confirmation', 'Résultat'] as const;


/** What the dialog's title names: « Importer des véhicules ». */
export const IMPORT_TITLES: Record<ImportEntity, string> = {
  driver: 'Importer des conducteurs',
  vehicule: 'Importer des véhicules',
  sinister: 'Importer des sinistres',
};

const plural = (count: number, one: string, many: string) => `${count.toLocaleString('fr-FR')} ${count > 1 ? many : one}`;

const NOUNS: Record<ImportEntity, [string, string]> = { driver: ['conducteur', 'conducteurs'], vehicule: ['véhicule', 'véhicules'], sinister: ['sinistre', 'sinistres'] };

/** The lines of a commit's counts, as the confirmation (future) and the result show them: « 2 véhicules créés ». */
export function countLines(entity: ImportEntity, counts: ImportCounts, future: boolean): string[] {
  const [one, many] = NOUNS[entity];
  const noun = (count: number) => `${count.toLocaleString('fr-FR')} ${count > 1 ? many : one}`;
  const agreed = (count: number, word: string) => (count > 1 ? `${word}s` : word);
  const lines = [
    `${noun(counts.created)} ${future ? 'à créer' : agreed(counts.created, 'créé')}`,
    `${noun(counts.updated)} ${future ? 'à mettre à jour' : 'mis à jour'}`,
    `${noun(counts.unchanged)} ${agreed(counts.unchanged, 'inchangé')}`,
    `${plural(counts.skipped, 'ligne', 'lignes')} ${agreed(counts.skipped, 'ignorée')} (${agreed(counts.skipped, 'invalide')})`,
  ];
  if (counts.exited > 0) lines.push(`${noun(counts.exited)} ${future ? 'à sortir de la flotte' : `${agreed(counts.exited, 'sorti')} de la flotte`}`);
  return lines;
}

function CountList({ entity, counts, future }: { entity: ImportEntity; counts: ImportCounts; future: boolean }) {
  return (
    <Box component="ul" sx={{ m: 0, pl: 2.5, display: 'grid', gap: 0.5 }}>
      {countLines(entity, counts, future).map((line) => (
        <li key={line}>
          <Typography>{line}</Typography>
        </li>
      ))}
    </Box>
  );
}

type Step1Props = { entity: ImportEntity; onUploaded: (preview: ImportPreview, file: File) => void };

/** 1 — the file: dropped or chosen, sent with its percent. */
function FileStep({ entity, onUploaded }: Step1Props) {
  const input = useRef<HTMLInputElement>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);

  const send = (file: File) => {
    setError(null);
    setFileName(file.name);
    setPercent(0);
    // The app's loading snackbar follows the upload too, as every long action does.
    let shown = snackbar.show({ type: 'loading', title: 'Envoi du fichier', description: file.name, progress: 0 });
    const progress = (value: number) => {
      setPercent(value);
      shown = snackbar.show({ type: 'loading', title: value < 100 ? 'Envoi du fichier' : 'Lecture du fichier', description: file.name, progress: value });
    };
    uploadImportFile(entity, file, progress).then(
      (preview) => {
        snackbar.hide(shown);
        onUploaded(preview, file);
      },
      (reason: unknown) => {
        snackbar.hide(shown);
        setPercent(null);
        setError(reason instanceof Error ? reason.message : "Le fichier n'a pas pu être lu.");
      },
    );
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file && percent === null) send(file);
  };

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        sx={{
          border: 2,
          borderStyle: 'dashed',
          borderColor: over ? 'primary.main' : 'divider',
          bgcolor: over ? 'action.hover' : 'transparent',
          borderRadius: 2,
          p: { xs: 3, sm: 5 },
          display: 'grid',
          justifyItems: 'center',
          gap: 1.5,
          textAlign: 'center',
        }}
      >
        <UploadFile color="action" sx={{ fontSize: 48 }} aria-hidden />
        <Typography>Déposez ici un fichier CSV ou Excel (.xlsx)</Typography>
        <Typography color="textSecondary" variant="body2">
          ou
        </Typography>
        <Button variant="contained" onClick={() => input.current?.click()} disabled={percent !== null}>
          Choisir un fichier
        </Button>
        <input
          ref={input}
          type="file"
          hidden
          aria-label="Fichier à importer"
          accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) send(file);
          }}
        />
        <Typography color="textSecondary" variant="body2">
          20 Mo et 100 000 lignes au plus ; la première ligne donne les noms des colonnes.
        </Typography>
      </Box>
      {percent !== null && (
        <Box role="status" aria-live="polite">
          <Typography variant="body2" sx={{ mb: 0.5 }}>
            {percent < 100 ? `Envoi de ${fileName ?? 'fichier'} : ${percent} %` : `Lecture de ${fileName ?? 'fichier'}…`}
          </Typography>
          <LinearProgress variant={percent < 100 ? 'determinate' : 'indeterminate'} value={percent} aria-label="Envoi du fichier" />
        </Box>
      )}
      {error && <Alert severity="error">{error}</Alert>}
    </Box>
  );
}

/** The values a column holds in the file's first rows, for the mapping's live sample. */
function sampleOf(preview: ImportPreview, column: number | null | undefined): string {
  if (column === null || column === undefined) return '';
  return preview.sample
    .slice(0, 3)
    .map((row) => row.cells[column] ?? '')
    .filter((cell) => cell.trim() !== '')
    .join(' · ');
}

export function missingRequired(preview: ImportPreview, mapping: ImportMapping, mode: ImportMode) {
  return preview.fields.filter((field) => (mode === 'compare' ? field.requiredInCompare === true : field.required) && (mapping[field.key] ?? null) === null);
}

type MappingStepProps = {
  preview: ImportPreview;
  /** Reads the workbook's other sheet (shown when it has several). */
  onSheet: (sheet: string) => void;
  busy: boolean;
  mapping: ImportMapping;
  onMapping: (mapping: ImportMapping) => void;
  mode: ImportMode;
  onMode: (mode: ImportMode) => void;
};

/** 2 — each target field with a column of the file, or 'Ne pas lier'. */
function MappingStep({ preview, onSheet, busy, mapping, onMapping, mode, onMode }: MappingStepProps) {
  const id = useId();
  const isRequired = (field: ImportPreview['fields'][number]) => (mode === 'compare' ? field.requiredInCompare === true : field.required);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {preview.sheets.length > 1 && (
        <TextField
          select
          size="small"
          id={`${id}-sheet`}
          label="Feuille"
          value={preview.sheet ?? ''}
          onChange={(event) => onSheet(event.target.value)}
          disabled={busy}
          helperText="Le classeur a plusieurs feuilles : choisissez celle à importer."
          sx={{ maxWidth: { sm: 360 } }}
        >
          {preview.sheets.map((sheet) => (
            <MenuItem key={sheet} value={sheet}>
              {sheet}
            </MenuItem>
          ))}
        </TextField>
      )}
      <Typography color="textSecondary">
        {preview.fileName} : {plural(preview.rowCount, 'ligne', 'lignes')}, {plural(preview.headers.length, 'colonne', 'colonnes')}
        {preview.separator ? ` (séparateur « ${preview.separator === '\t' ? 'tabulation' : preview.separator} »)` : ''}. Les champs marqués * sont
        obligatoires.
      </Typography>
      {preview.entity === 'vehicule' && (
        <RadioGroup aria-label="Mode d'import" value={mode} onChange={(event) => onMode(event.target.value as ImportMode)}>
          <FormControlLabel value="upsert" control={<Radio />} label="Ajouter et mettre à jour les véhicules du fichier" />
          <FormControlLabel value="compare" control={<Radio />} label="Comparer avec la flotte : choisir les entrées, les changements et les sorties" />
        </RadioGroup>
      )}
      <Box sx={{ display: 'grid', gap: { xs: 2, sm: 1.5 } }}>
        {preview.fields.map((field) => {
          const column = mapping[field.key] ?? null;
          const sample = sampleOf(preview, column);
          return (
            <Box
              key={field.key}
              sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(0, 1fr) minmax(0, 1.2fr)' }, gap: { xs: 0.5, sm: 2 }, alignItems: 'center' }}
            >
              <TextField
                select
                size="small"
                id={`${id}-${field.key}`}
                label={`${field.label}${isRequired(field) ? ' *' : ''}`}
                value={column === null ? '' : String(column)}
                onChange={(event) => onMapping({ ...mapping, [field.key]: event.target.value === '' ? null : Number(event.target.value) })}
                slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
                error={isRequired(field) && column === null}
              >
                <MenuItem value="">
                  <em>Ne pas lier</em>
                </MenuItem>
                {preview.headers.map((header, index) => (
                  <MenuItem key={index} value={String(index)}>
                    {header || `Colonne ${index + 1}`}
                  </MenuItem>
                ))}
              </TextField>
              <Typography variant="body2" color="textSecondary" sx={{ overflowWrap: 'anywhere' }} aria-label={`Exemple : ${field.label}`}>
                {column === null ? (isRequired(field) ? 'Obligatoire : choisissez une colonne' : '—') : sample || '(vide dans les premières lignes)'}
              </Typography>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}

function RowMessages({ title, rows, total, severity }: { title: string; rows: ImportValidation['errors']; total: number; severity: 'error' | 'warning' }) {
  const shown = rows.slice(0, 200);
  return (
    <Box>
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      <Box
        component="ul"
        sx={{ m: 0, p: 0, listStyle: 'none', maxHeight: 320, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}
        tabIndex={0}
        aria-label={title}
      >
        {shown.map((row, index) => (
          <Box component="li" key={index} sx={{ px: 1.5, py: 0.75, borderBottom: 1, borderColor: 'divider', '&:last-of-type': { borderBottom: 0 } }}>
            <Typography variant="body2">
              <Box component="strong" sx={{ color: severity === 'error' ? 'error.dark' : 'warning.dark' }}>
                Ligne {row.line}
              </Box>
              {row.column && !row.message.startsWith(`${row.column} :`) ? ` · ${row.column}` : ''} : {row.message}
            </Typography>
          </Box>
        ))}
      </Box>
      {total > shown.length && (
        <Typography variant="body2" color="textSecondary" sx={{ mt: 0.5 }}>
          et {plural(total - shown.length, 'autre', 'autres')}
        </Typography>
      )}
    </Box>
  );
}

/** 3 — what the file holds once mapped: valid and invalid rows, the errors per row. */
function CheckStep({ validation, onDownload, busy }: { validation: ImportValidation; onDownload: () => void; busy: boolean }) {
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
        <Alert severity="success" icon={false} sx={{ flex: '1 1 160px' }}>
          <strong>{validation.valid.toLocaleString('fr-FR')}</strong> {validation.valid > 1 ? 'lignes valides' : 'ligne valide'}
        </Alert>
        <Alert severity={validation.invalid > 0 ? 'error' : 'success'} icon={false} sx={{ flex: '1 1 160px' }}>
          <strong>{validation.invalid.toLocaleString('fr-FR')}</strong> {validation.invalid > 1 ? 'lignes invalides' : 'ligne invalide'}
        </Alert>
      </Box>
      {validation.invalid > 0 && <Typography>Les lignes invalides seront ignorées. Corrigez le fichier et recommencez pour les importer.</Typography>}
      {validation.errors.length > 0 && <RowMessages title="Erreurs" rows={validation.errors} total={validation.errorCount} severity="error" />}
      {validation.errorCount > 0 && (
        <Box>
          <Button variant="outlined" startIcon={<Download />} onClick={onDownload} disabled={busy}>
            Télécharger les erreurs
          </Button>
          <Typography variant="body2" color="textSecondary" sx={{ mt: 0.5 }}>
            Toutes les erreurs ({validation.errorCount.toLocaleString('fr-FR')}) dans un fichier CSV : ligne, colonne et message.
          </Typography>
        </Box>
      )}
      {validation.warnings.length > 0 && <RowMessages title="Avertissements" rows={validation.warnings} total={validation.warnings.length} severity="warning" />}
    </Box>
  );
}

export type CompareChoice = { new: Set<string>; changed: Set<string>; exits: Map<string, string> };

type CompareVehicule = NonNullable<ImportValidation['compare']>['new'][number];

function vehiculeLine(vehicule: CompareVehicule) {
  return [vehicule.immatriculation, [vehicule.brand, vehicule.model].filter(Boolean).join(' ')].filter(Boolean).join(' — ');
}

function CompareSection({ title, help, children, count }: { title: string; help: string; count: number; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {title} ({count.toLocaleString('fr-FR')})
      </Typography>
      <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }}>
        {count === 0 ? 'Aucun.' : help}
      </Typography>
      {count > 0 && (
        <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', maxHeight: 280, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1, px: 1.5 }}>
          {children}
        </Box>
      )}
    </Box>
  );
}

/** 4 — what the commit will do; in compare mode, the vehicles to add, change and take out. */
function ConfirmStep({ entity, validation, choice, onChoice }: { entity: ImportEntity; validation: ImportValidation; choice: CompareChoice; onChoice: (choice: CompareChoice) => void }) {
  const compare = validation.compare;
  if (!compare)
    return (
      <Box sx={{ display: 'grid', gap: 2 }}>
        <Typography>L'import fera ceci, en une seule fois :</Typography>
        <CountList entity={entity} counts={validation.counts} future />
        <Typography color="textSecondary" variant="body2">
          Vous pourrez annuler l'import pendant 24 heures.
        </Typography>
      </Box>
    );
  const toggle = (set: Set<string>, key: string, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(key);
    else next.delete(key);
    return next;
  };
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <CompareSection title="Nouveaux véhicules" count={compare.new.length} help="Cochés : ils entrent dans la flotte.">
        {compare.new.map((vehicule) => (
          <li key={vehicule.key}>
            <FormControlLabel
              control={<Checkbox checked={choice.new.has(vehicule.key)} onChange={(event) => onChoice({ ...choice, new: toggle(choice.new, vehicule.key, event.target.checked) })} />}
              label={vehiculeLine(vehicule)}
            />
          </li>
        ))}
      </CompareSection>
      <CompareSection title="Véhicules modifiés" count={compare.changed.length} help="Cochés : leurs valeurs prennent celles du fichier.">
        {compare.changed.map((vehicule) => (
          <li key={vehicule.key}>
            <FormControlLabel
              control={
                <Checkbox checked={choice.changed.has(vehicule.key)} onChange={(event) => onChoice({ ...choice, changed: toggle(choice.changed, vehicule.key, event.target.checked) })} />
              }
              label={
                <span>
                  {vehiculeLine(vehicule)}
                  {vehicule.changes.map((change) => (
                    <Typography key={change.field} component="span" variant="body2" color="textSecondary" sx={{ display: 'block' }}>
                      {change.label} : {change.old ?? '(vide)'} → {change.new ?? '(vide)'}
                    </Typography>
                  ))}
                </span>
              }
            />
          </li>
        ))}
      </CompareSection>
      <CompareSection title="Absents du fichier" count={compare.missing.length} help="Cochez ceux qui sortent de la flotte et donnez leur date de sortie.">
        {compare.missing.map((vehicule) => {
          const uuid = vehicule.uuid ?? vehicule.key;
          const exitDate = choice.exits.get(uuid);
          return (
            <Box component="li" key={uuid} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, py: 0.5 }}>
              <FormControlLabel
                sx={{ flex: '1 1 220px', mr: 0 }}
                control={
                  <Checkbox
                    checked={exitDate !== undefined}
                    onChange={(event) => {
                      const exits = new Map(choice.exits);
                      if (event.target.checked) exits.set(uuid, todayIso());
                      else exits.delete(uuid);
                      onChoice({ ...choice, exits });
                    }}
                  />
                }
                label={`Sortie de ${vehiculeLine(vehicule)}`}
              />
              {exitDate !== undefined && (
                <Box sx={{ width: 200, mt: 0.5 }}>
                  {/* The app's French date field (JJ/MM/AAAA), not the browser's, whose order follows its own language. */}
                  <LazyDateField
                    size="small"
                    label="Date de sortie"
                    value={exitDate}
                    clearable={false}
                    onChange={(value) => onChoice({ ...choice, exits: new Map(choice.exits).set(uuid, value ?? '') })}
                  />
                </Box>
              )}
            </Box>
          );
        })}
      </CompareSection>
    </Box>
  );
}

/** `until`: the end of the 24 h when « Annuler l'import » is offered, as the server says it: « 27/11/2026 à 14:05 ». */
type Outcome = { importId: string; counts: ImportCounts; until: string | null };

/** 5 — what the import did, and the way back. */
function ResultStep({ entity, outcome, reverted }: { entity: ImportEntity; outcome: Outcome; reverted: ImportRevert | null }) {
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {reverted ? (
        <Alert severity="info">
          Import annulé : {plural(reverted.restored, 'ligne rétablie', 'lignes rétablies')}.
          <RevertLeftList left={reverted.left} />
        </Alert>
      ) : (
        <Alert severity="success">Import terminé.</Alert>
      )}
      <CountList entity={entity} counts={outcome.counts} future={false} />
      {!reverted && (
        <Typography color="textSecondary" variant="body2">
          « Annuler l'import » supprime ce qu'il a créé et remet ce qu'il a modifié, pendant 24 heures{outcome.until ? ` (jusqu'au ${outcome.until})` : ''}.
        </Typography>
      )}
    </Box>
  );
}

const message = (reason: unknown) => (reason instanceof Error ? reason.message : 'Une erreur est survenue. Veuillez réessayer.');
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type ImportDialogProps = { entity: ImportEntity; open: boolean; onClose: () => void };

/** The import stepper (SPEC « Import screens »): file, columns, check, confirmation, result. */
export function ImportDialog({ entity, open, onClose }: ImportDialogProps) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const queryClient = useQueryClient();
  const titleId = useId();
  const [step, setStep] = useState(0);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [mapping, setMapping] = useState<ImportMapping>({});
  const [mode, setMode] = useState<ImportMode>('upsert');
  const [validation, setValidation] = useState<ImportValidation | null>(null);
  const [choice, setChoice] = useState<CompareChoice>({ new: new Set(), changed: new Set(), exits: new Map() });
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [reverted, setReverted] = useState<ImportRevert | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reset = () => {
    setStep(0);
    setPreview(null);
    setFile(null);
    setMapping({});
    setMode('upsert');
    setValidation(null);
    setOutcome(null);
    setReverted(null);
    setError(null);
  };
  const close = () => {
    if (busy) return;
    onClose();
    // After the closing transition, the next opening starts over.
    setTimeout(reset, 300);
  };

  const run = async (label: string, action: () => Promise<void>) => {
    setBusy(label);
    setError(null);
    try {
      await action();
    } catch (reason) {
      setError(message(reason));
    } finally {
      setBusy(null);
    }
  };

  const missing = preview ? missingRequired(preview, mapping, mode) : [];

  const check = () =>
    run('Vérification du fichier…', async () => {
      if (!preview) return;
      const result = await validateImport(preview.importId, { mapping, ...(entity === 'vehicule' ? { mode } : {}) });
      setValidation(result);
      setChoice({
        new: new Set(result.compare?.new.map((vehicule) => vehicule.key)),
        changed: new Set(result.compare?.changed.map((vehicule) => vehicule.key)),
        exits: new Map(),
      });
      setStep(2);
    });

  /** Another sheet of the workbook: the file is read again from it, its columns suggested afresh. */
  const changeSheet = (sheet: string) =>
    run(`Lecture de la feuille « ${sheet} »…`, async () => {
      if (!file) return;
      const next = await uploadImportFile(entity, file, () => undefined, sheet);
      setPreview(next);
      setMapping(next.suggestedMapping);
    });

  const downloadErrors = () =>
    run('Préparation du fichier des erreurs…', async () => {
      if (preview) await downloadImportErrors(preview.importId);
    });

  const commit = () =>
    run('Import en cours…', async () => {
      if (!preview || !validation) return;
      const selection = validation.compare
        ? { new: [...choice.new], changed: [...choice.changed], exits: [...choice.exits].map(([uuid, exitDate]) => ({ uuid, exitDate })) }
        : undefined;
      let shown = snackbar.show({ type: 'loading', title: 'Import en cours', description: preview.fileName, progress: 0 });
      const result = await commitImport(preview.importId, { mapping, ...(entity === 'vehicule' ? { mode } : {}), ...(selection ? { selection } : {}) }).finally(() =>
        snackbar.hide(shown),
      );
      let counts: ImportCounts = result;
      let summary: ImportSummary | null;
      if (result.status === 'queued' || result.status === 'running') {
        // A long import runs in the background: follow it until it is done, its percent in the snackbar.
        try {
          for (;;) {
            await wait(1000);
            summary = await getImport(preview.importId);
            setBusy(`Import en cours… ${summary.percent} %`);
            shown = snackbar.show({ type: 'loading', title: 'Import en cours', description: `${summary.percent} %`, progress: summary.percent });
            if (summary.status === 'failed') throw new Error(summary.error ?? "L'import a échoué ; rien n'a été enregistré.");
            if (summary.status === 'committed' && summary.counts) {
              counts = summary.counts;
              break;
            }
          }
        } finally {
          snackbar.hide(shown);
        }
      } else {
        // Until when it may be undone, by the server's clock (done: a failed read only leaves the date out).
        summary = await getImport(preview.importId).catch(() => null);
      }
      setOutcome({ importId: preview.importId, counts, until: summary?.revertibleUntil ? formatDateTime(summary.revertibleUntil) : null });
      invalidateAfterWrite(queryClient, REGISTER[entity]);
      void queryClient.invalidateQueries({ queryKey: queryKeys.imports.all });
      setStep(4);
    });

  const revert = () =>
    run("Annulation de l'import…", async () => {
      if (!outcome) return;
      setReverted(await revertImport(outcome.importId));
      invalidateAfterWrite(queryClient, REGISTER[entity]);
      void queryClient.invalidateQueries({ queryKey: queryKeys.imports.all });
    });

  const compareEmpty = validation?.compare ? choice.new.size + choice.changed.size + choice.exits.size === 0 : false;
  const invalidExit = [...choice.exits.values()].some((date) => !/^\d{4}-\d{2}-\d{2}$/.test(date));

  let body: ReactNode = null;
  let actions: ReactNode = null;
  if (step === 0) {
    body = (
      <FileStep
        entity={entity}
        onUploaded={(result, uploaded) => {
          setPreview(result);
          setFile(uploaded);
          setMapping(result.suggestedMapping);
          setStep(1);
        }}
      />
    );
  } else if (step === 1 && preview) {
    body = <MappingStep preview={preview} onSheet={changeSheet} busy={busy !== null} mapping={mapping} onMapping={setMapping} mode={mode} onMode={setMode} />;
    actions = (
      <>
        <Button onClick={reset}>Changer de fichier</Button>
        <Button variant="contained" onClick={check} disabled={missing.length > 0 || busy !== null}>
          Vérifier
        </Button>
      </>
    );
  } else if (step === 2 && validation) {
    body = <CheckStep validation={validation} onDownload={downloadErrors} busy={busy !== null} />;
    actions = (
      <>
        <Button onClick={() => setStep(1)}>Retour</Button>
        <Button variant="contained" onClick={() => setStep(3)} disabled={validation.valid === 0}>
          Continuer
        </Button>
      </>
    );
  } else if (step === 3 && validation) {
    body = <ConfirmStep entity={entity} validation={validation} choice={choice} onChoice={setChoice} />;
    actions = (
      <>
        <Button onClick={() => setStep(2)} disabled={busy !== null}>
          Retour
        </Button>
        <Button variant="contained" onClick={commit} disabled={busy !== null || compareEmpty || invalidExit}>
          Importer
        </Button>
      </>
    );
  } else if (step === 4 && outcome) {
    body = <ResultStep entity={entity} outcome={outcome} reverted={reverted} />;
    actions = !reverted && (
      <Button variant="outlined" onClick={revert} disabled={busy !== null}>
        Annuler l'import
      </Button>
    );
  }

  return (
    <Dialog open={open} onClose={close} fullScreen={phone} fullWidth maxWidth="md" aria-labelledby={titleId} scroll="paper">
      <DialogTitle id={titleId}>{IMPORT_TITLES[entity]}</DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
        {phone ? (
          <Typography color="textSecondary" variant="body2">
            Étape {step + 1} sur {STEPS.length} : {STEPS[step]}
          </Typography>
        ) : (
          <Stepper activeStep={step} aria-label="Étapes de l'import">
            {STEPS.map((label) => (
              <Step key={label} completed={step === 4 || undefined}>
                <StepLabel>{label}</StepLabel>
              </Step>
            ))}
          </Stepper>
        )}
        {missing.length > 0 && step === 1 && (
          <Alert severity="warning">À lier avant de continuer : {missing.map((field) => field.label).join(', ')}.</Alert>
        )}
        {body}
        {busy && (
          <Box role="status" aria-live="polite">
            <Typography variant="body2" sx={{ mb: 0.5 }}>
              {busy}
            </Typography>
            <LinearProgress aria-label={busy} />
          </Box>
        )}
        {error && <Alert severity="error">{error}</Alert>}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={close} disabled={busy !== null}>
          {step === 4 ? 'Fermer' : 'Annuler'}
        </Button>
        {actions}
      </DialogActions>
    </Dialog>
  );
}
