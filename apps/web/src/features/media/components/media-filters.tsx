import CheckIcon from '@mui/icons-material/Check';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { MediaEntityFilter, MediaKind } from '@flotte/contract';
import { PlainSelect } from '../../../components/plain/plain-select';
import { ENTITY_CHOICES, KIND_CHOICES, MEDIA_TEXTS } from '../utils/media-texts';

export type MediaFiltersProps = {
  kind: MediaKind | undefined;
  entity: MediaEntityFilter | undefined;
  /** A chip pressed again lets go of its kind: undefined. */
  onKind: (kind: MediaKind | undefined) => void;
  onEntity: (entity: MediaEntityFilter | undefined) => void;
};

/** The kind as toggle chips (one at a time), the attachment as a select. */
export function MediaFilters({ kind, entity, onKind, onEntity }: MediaFiltersProps) {
  return (
    <>
      <Box role="group" aria-label={MEDIA_TEXTS.kinds} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {KIND_CHOICES.map((choice) => {
          const pressed = kind === choice.value;
          return (
            <Chip
              key={choice.value}
              label={choice.label}
              clickable
              aria-pressed={pressed}
              color={pressed ? 'primary' : 'default'}
              variant={pressed ? 'filled' : 'outlined'}
              icon={pressed ? <CheckIcon aria-hidden /> : undefined}
              onClick={() => onKind(pressed ? undefined : choice.value)}
            />
          );
        })}
      </Box>
      <Box sx={{ flex: { xs: '1 1 100%', sm: '0 1 220px' }, minWidth: 0 }}>
        <PlainSelect
          label={MEDIA_TEXTS.entity}
          size="small"
          value={entity ?? ''}
          empty={MEDIA_TEXTS.allFiles}
          choices={ENTITY_CHOICES}
          onChange={(value) => onEntity(value === '' ? undefined : (value as MediaEntityFilter))}
        />
      </Box>
    </>
  );
}
