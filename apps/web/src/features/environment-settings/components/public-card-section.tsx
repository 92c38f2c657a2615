import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { SectionCard } from '../../../components/section-card';

/**
 * « Votre carte » of /superadmin/settings: a preview of the card the members of the client
 * organizations see in « Aide et support » (the help dialog's own component, given by the route),
 * above the controls that edit it (the account page's photo and profile controls).
 */
export function PublicCardSection({ preview, photo, children }: { preview: ReactNode; photo: ReactNode; children: ReactNode }) {
  return (
    <SectionCard id="carte" title="Votre carte" description="Ce que les membres de vos organisations clientes voient dans « Aide et support ».">
      <Box sx={{ display: 'grid', gap: 1 }}>
        <Typography variant="overline" color="textSecondary" component="p">
          Aperçu
        </Typography>
        <Box data-testid="apercu-carte" sx={{ maxWidth: 520 }}>
          {preview}
        </Box>
      </Box>
      {photo}
      <Divider />
      {children}
    </SectionCard>
  );
}
