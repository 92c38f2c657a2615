import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { AUDIT_ENTITIES, type AuditChange, type AuditEntity, type AuditEntry } from '@flotte/contract';
import { useEffect, useState } from 'react';
import { menuItems } from '../../../components/form/menu-items';
import { PeriodFilter } from '../../../components/register/period-filter';
import { RegisterPagination } from '../../../components/register/register-pagination';
import { ResponsiveTable } from '../../../components/responsive-table';
import { SectionCard } from '../../../components/section-card';
import { useCurrentUser } from '../../../lib/auth-store';
import { formatDateTime } from '../../../lib/format';
import { isAdministrator } from '../../../lib/permissions';
import { AUDIT_PAGE_SIZE, useAuditActors, useAuditLog, type AuditLogFilters } from '../api/audit-log';

const EMPTY: AuditLogFilters = { page: 1, search: '', entity: '', actor: '', from: '', to: '' };
const NOTHING = '(vide)';

/** One field: « Marque : Peugeot → Renault » (an update), its value alone for a creation or a deletion. */
function ChangeLine({ change, action }: { change: AuditChange; action: AuditEntry['action'] }) {
  const value =
    action === 'update' || action === 'archive' || action === 'restore' ? (
      <>
        <Box component="span" sx={{ color: 'text.secondary' }}>
          {change.before ?? NOTHING}
        </Box>
        {' → '}
        <Box component="span" sx={{ fontWeight: 600 }}>
          {change.after ?? NOTHING}
        </Box>
      </>
    ) : (
      <span>{(action === 'delete' ? change.before : change.after) ?? NOTHING}</span>
    );
  return (
    <Box component="li" sx={{ overflowWrap: 'anywhere' }}>
      {change.label}&nbsp;: {value}
    </Box>
  );
}

function Details({ entry }: { entry: AuditEntry }) {
  if (entry.changes.length === 0) return <>—</>;
  return (
    <Box component="ul" aria-label={`Détails : ${entry.actionLabel.toLowerCase()} ${entry.label ?? ''}`.trim()} sx={{ m: 0, pl: 2, typography: 'body2' }}>
      {entry.changes.map((change) => (
        <ChangeLine key={change.field} change={change} action={entry.action} />
      ))}
    </Box>
  );
}

/**
 * The organization's activity log (issue 16, decision 041), for its administrators (and the
 * broker working in it): who created, changed, archived, restored or deleted what, and when,
 * field by field, newest first; filtered by words, kind of record, author and days.
 */
export function AuditLogSection() {
  const user = useCurrentUser();
  const organizationUuid = user?.currentOrganizationUser?.organization.uuid ?? '';
  const enabled = isAdministrator(user) && organizationUuid !== '';
  const wide = useMediaQuery(useTheme().breakpoints.up('sm'), { noSsr: true });
  const [filters, setFilters] = useState<AuditLogFilters>(EMPTY);
  const [typed, setTyped] = useState('');
  const log = useAuditLog(organizationUuid, filters, enabled);
  const actors = useAuditActors(organizationUuid, enabled);

  // The search follows the typing once it pauses.
  useEffect(() => {
    const timer = setTimeout(() => setFilters((current) => (current.search === typed.trim() ? current : { ...current, search: typed.trim(), page: 1 })), 300);
    return () => clearTimeout(timer);
  }, [typed]);

  if (!enabled) return null;
  const set = (next: Partial<AuditLogFilters>) => setFilters((current) => ({ ...current, ...next, page: 1 }));
  const actorChoices = (actors.data?.data ?? []).map((actor) => ({ value: actor.uuid, label: actor.name || actor.email }));

  return (
    <SectionCard id="journal" title="Journal d’activité" description="Qui a créé, modifié, archivé ou supprimé quoi dans l’organisation, et quand">
      <Box role="search" aria-label="Filtrer le journal" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-end' }}>
        <TextField size="small" label="Rechercher" placeholder="Nom, e-mail, plaque…" value={typed} onChange={(event) => setTyped(event.target.value)} type="search" sx={{ flex: '2 1 220px' }} />
        <TextField select size="small" label="Élément" value={filters.entity} onChange={(event) => set({ entity: event.target.value as AuditEntity | '' })} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }} sx={{ flex: '1 1 160px' }}>
          {menuItems(AUDIT_ENTITIES, 'Tous')}
        </TextField>
        <TextField select size="small" label="Auteur" value={filters.actor} onChange={(event) => set({ actor: event.target.value })} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }} sx={{ flex: '1 1 160px' }}>
          {menuItems(actorChoices, 'Tous')}
        </TextField>
        <PeriodFilter legend="Période" start={filters.from} end={filters.to} clearable onChange={({ start, end }) => set({ from: start, to: end })} />
      </Box>
      {log.isPending ? (
        <Box aria-busy="true">
          <Skeleton width="70%" />
          <Skeleton width="90%" />
          <Skeleton width="60%" />
        </Box>
      ) : log.isError ? (
        <Alert severity="error">Impossible de charger le journal. Rechargez la page pour réessayer.</Alert>
      ) : log.data.data.length === 0 ? (
        <Typography variant="body2" color="textSecondary">
          {!(filters.search || filters.entity || filters.actor || filters.from || filters.to) ? 'Aucune écriture enregistrée pour l’instant.' : 'Aucune écriture ne correspond à ces filtres.'}
        </Typography>
      ) : (
        <Box sx={{ display: 'grid', gap: 1 }}>
          <ResponsiveTable
            label="Journal d’activité"
            rows={log.data.data}
            rowKey={(entry) => entry.id}
            title={{ label: 'Date', value: (entry) => <Box component="span" sx={{ whiteSpace: { sm: 'nowrap' } }}>{formatDateTime(entry.occurredAt)}</Box> }}
            columns={[
              {
                label: 'Qui',
                value: (entry) => (
                  <>
                    {entry.actor.name || entry.actor.email}
                    <Typography component="span" variant="caption" color="textSecondary" sx={{ display: 'block' }}>
                      {entry.actor.roleLabel}
                    </Typography>
                  </>
                ),
              },
              { label: 'Action', value: (entry) => entry.actionLabel },
              {
                label: 'Élément',
                value: (entry) => (
                  <>
                    {entry.entityLabel}
                    {entry.label ? (
                      <Box component="span" sx={{ display: 'block', fontWeight: 600, overflowWrap: 'anywhere' }}>
                        {entry.label}
                      </Box>
                    ) : null}
                  </>
                ),
              },
              { label: 'Détails', value: (entry) => <Details entry={entry} /> },
            ]}
          />
          <RegisterPagination
            page={log.data.page}
            pageSize={AUDIT_PAGE_SIZE}
            total={log.data.total}
            totalIsCapped={log.data.totalIsCapped ?? false}
            showEdges={wide}
            onPageChange={(page) => setFilters((current) => ({ ...current, page }))}
          />
        </Box>
      )}
    </SectionCard>
  );
}
