import PhoneOutlined from '@mui/icons-material/PhoneOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { Superadmin } from '@flotte/contract';
import { formatPhone } from '../../../lib/format';

/** The superadmin looking after the user's environment: who to call. */
export function SuperadminCard({ superadmin }: { superadmin: NonNullable<Superadmin> }) {
  const name = `${superadmin.firstName} ${superadmin.lastName}`;
  const phone = formatPhone(superadmin.phone);
  return (
    <Paper variant="outlined" sx={{ p: 2, display: 'flex', gap: 2, alignItems: 'flex-start' }}>
      <Avatar src={superadmin.avatar?.url ?? undefined} alt="" aria-hidden sx={{ width: 56, height: 56, bgcolor: 'secondary.main' }}>
        {`${superadmin.firstName.charAt(0)}${superadmin.lastName.charAt(0)}`.toUpperCase()}
      </Avatar>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="caption" color="textSecondary" component="p">
          Votre interlocuteur
        </Typography>
        <Typography variant="subtitle1" component="p" sx={{ fontWeight: 700 }}>
          {name}
        </Typography>
        {superadmin.description && (
          <Typography variant="body2" color="textSecondary" sx={{ whiteSpace: 'pre-line' }}>
            {superadmin.description}
          </Typography>
        )}
        {phone && (
          <Link
            href={`tel:${superadmin.phone ?? ''}`}
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mt: 1, fontWeight: 600 }}
          >
            <PhoneOutlined fontSize="small" aria-hidden />
            {phone}
          </Link>
        )}
      </Box>
    </Paper>
  );
}
