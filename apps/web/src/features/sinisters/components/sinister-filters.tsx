import Check from '@mui/icons-material/Check';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { type Guarantee, SINISTER_STATUS_LABELS, SINISTER_STATUSES } from '@flotte/contract';
import { useId } from 'react';
import { PlainSelect } from '../../../components/plain/plain-select';
import { PeriodFilter } from '../../../components/register/period-filter';
import { guaranteeChoices } from '../utils/format-sinister';
import type { SinisterFilter } from '../api/sinisters-api';

type Toggle = { label: string; name: SinisterFilter; value: string };

/** SPEC 2 labels. `responsible` is one URL filter with two values: choosing one clears the other. */
const TOGGLE_GROUPS: readonly { label: string; toggles: readonly Toggle[] }[] = [
  {
    label: 'Circonstances',
    toggles: [
      { label: 'Dommages corporels', name: 'hasHumanInjury', value: 'true' },
      { label: 'Véhicules endommagés', name: 'damagedVehicule', value: 'true' },
      { label: 'Tiers impliqués', name: 'isThirdImplicated', value: 'true' },
    ],
  },
  {
    label: 'Déclaration',
    toggles: [
      { label: 'Sinistres déclarés', name: 'showDeclared', value: 'true' },
      { label: 'Sinistres non déclarés', name: 'showNotDeclared', value: 'true' },
    ],
  },
  {
    label: 'Responsabilité',
    toggles: [
      { label: 'Je suis responsable', name: 'responsible', value: 'me' },
      { label: 'Je ne suis pas responsable', name: 'responsible', value: 'other' },
    ],
  },
];

const STATUS_CHOICES = SINISTER_STATUSES.map((status) => ({ value: status, label: SINISTER_STATUS_LABELS[status] }));

export type SinisterFilterValues = Readonly<Record<SinisterFilter, string>>;

/** How many filters differ from their defaults (the period counts as one). */
export function countActiveFilters(filters: SinisterFilterValues, defaults: SinisterFilterValues): number {
  const toggles = (['hasHumanInjury', 'damagedVehicule', 'isThirdImplicated', 'showDeclared', 'showNotDeclared', 'responsible', 'status', 'garantee', 'driver'] as const).filter(
    (name) => filters[name] !== defaults[name],
  ).length;
  const period = filters.startDate !== defaults.startDate || filters.endDate !== defaults.endDate ? 1 : 0;
  return toggles + period;
}

function ToggleChip({ toggle, pressed, onToggle }: { toggle: Toggle; pressed: boolean; onToggle: () => void }) {
  return (
    <Chip
      label={toggle.label}
      onClick={onToggle}
      aria-pressed={pressed}
      icon={pressed ? <Check fontSize="small" /> : undefined}
      color={pressed ? 'primary' : 'default'}
      variant={pressed ? 'filled' : 'outlined'}
      sx={{
        fontWeight: 600,
        bgcolor: pressed ? undefined : 'background.paper',
        // The default grey text of an outlined chip is below WCAG AA on white.
        color: pressed ? undefined : 'text.primary',
      }}
    />
  );
}

export type SinisterFiltersProps = {
  filters: SinisterFilterValues;
  /** Changes one or several filters in one navigation (useListSearchParams' setFilters). */
  onChange: (values: Partial<Record<SinisterFilter, string>>) => void;
  /** Undefined while loading. */
  guarantees: readonly Guarantee[] | undefined;
};

/** The claims' period, guarantee and the seven toggles of SPEC 2. */
export function SinisterFilters({ filters, onChange, guarantees }: SinisterFiltersProps) {
  const groupId = useId();
  const options = [...(guarantees ?? [])];
  // A guarantee from a shared link, before the list arrives (or one since removed).
  if (filters.garantee && !options.some((guarantee) => guarantee.uuid === filters.garantee)) {
    options.push({ uuid: filters.garantee, label: guarantees ? 'Garantie inconnue' : 'Chargement…' });
  }

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
        <PeriodFilter
          legend="Période"
          start={filters.startDate}
          end={filters.endDate}
          onChange={({ start, end }) => onChange({ startDate: start, endDate: end })}
        />
        {/* Level with the dates, under the period's caption. */}
        <Box sx={{ flex: { xs: '1 1 100%', sm: '0 1 280px' }, minWidth: 0, mt: { xs: 0, sm: 3 } }}>
          <PlainSelect
            size="small"
            label="Garantie"
            value={filters.garantee}
            onChange={(garantee) => onChange({ garantee })}
            choices={guaranteeChoices(options)}
            empty="Toutes les garanties"
          />
        </Box>
        <Box sx={{ flex: { xs: '1 1 100%', sm: '0 1 200px' }, minWidth: 0, mt: { xs: 0, sm: 3 } }}>
          <PlainSelect
            size="small"
            label="Statut du sinistre"
            value={filters.status}
            onChange={(status) => onChange({ status })}
            choices={STATUS_CHOICES}
            empty="Tous les statuts"
          />
        </Box>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 1.5 }}>
        {TOGGLE_GROUPS.map((group, index) => (
          <Box key={group.label} role="group" aria-labelledby={`${groupId}-${index}`} sx={{ display: 'grid', gap: 0.75 }}>
            <Typography id={`${groupId}-${index}`} variant="caption" color="textSecondary" sx={{ fontWeight: 600 }}>
              {group.label}
            </Typography>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              {group.toggles.map((toggle) => {
                const pressed = filters[toggle.name] === toggle.value;
                return (
                  <ToggleChip
                    key={`${toggle.name}-${toggle.value}`}
                    toggle={toggle}
                    pressed={pressed}
                    onToggle={() => onChange({ [toggle.name]: pressed ? '' : toggle.value })}
                  />
                );
              })}
            </Box>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
