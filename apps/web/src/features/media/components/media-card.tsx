import CarCrashOutlined from '@mui/icons-material/CarCrashOutlined';
import DirectionsCarOutlined from '@mui/icons-material/DirectionsCarOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { formatFileSize, type MediaEntity, type MediaItem } from '@flotte/contract';
import { documentName } from '../../../components/documents/documents-api';
import { formatDate } from '../../../lib/format';
import { entityChipText, MEDIA_TEXTS } from '../utils/media-texts';
import { MediaThumbnail } from './media-thumbnail';

const ENTITY_ICONS = { driver: PersonOutlined, vehicule: DirectionsCarOutlined, sinister: CarCrashOutlined } as const;

function EntityChip({ entity }: { entity: MediaEntity }) {
  const { label, title } = entityChipText(entity);
  const Icon = ENTITY_ICONS[entity.type];
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={<Icon aria-hidden />}
      label={label}
      title={title}
      aria-label={title}
      sx={{ maxWidth: '100%', alignSelf: 'flex-start', color: entity.label === null ? 'text.secondary' : undefined }}
    />
  );
}

export type MediaCardProps = {
  file: MediaItem;
  onOpen: (file: MediaItem) => void;
  onDownload: (file: MediaItem) => void;
};

/** A file of the library: its thumbnail (or its kind's icon), name, size, date, record; opens its preview. */
export function MediaCard({ file, onOpen, onDownload }: MediaCardProps) {
  const name = documentName(file);
  return (
    <Card component="li" variant="outlined" sx={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
      <CardActionArea onClick={() => onOpen(file)} aria-label={`Voir ${name}`}>
        <MediaThumbnail file={file} />
        <Typography variant="body2" noWrap title={name} sx={{ px: 1.5, pt: 1, fontWeight: 500 }}>
          {name}
        </Typography>
      </CardActionArea>
      <Box sx={{ display: 'grid', gap: 0.75, px: 1.5, pt: 0.25, pb: 1, mt: 'auto', minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
          <Box sx={{ flex: 1, minWidth: 0, display: 'grid' }}>
            <Typography variant="caption" color="textSecondary" noWrap>
              {file.size !== null ? formatFileSize(file.size) : ''}
            </Typography>
            <Typography variant="caption" color="textSecondary" noWrap title={`Ajouté le ${formatDate(file.createdAt)}`}>
              {/* A phone's card has room for the date alone. */}
              <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
                Ajouté le{' '}
              </Box>
              {formatDate(file.createdAt)}
            </Typography>
          </Box>
          <IconButton size="small" edge="end" aria-label={`${MEDIA_TEXTS.download} ${name}`} title={MEDIA_TEXTS.download} onClick={() => onDownload(file)}>
            <FileDownloadOutlined fontSize="small" />
          </IconButton>
        </Box>
        {file.entity && <EntityChip entity={file.entity} />}
      </Box>
    </Card>
  );
}
