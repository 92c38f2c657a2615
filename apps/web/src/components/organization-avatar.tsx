import Avatar from '@mui/material/Avatar';
import type { OrganizationSummary } from '@flotte/contract';

/**
 * The organization's logo, or the first letter of its title. A logo is not square (decision 042:
 * it fits inside 512 × 256): it is shown whole, on white, in a box half as wide again as high,
 * never cropped.
 */
export function OrganizationAvatar({ organization, size = 40 }: { organization: Pick<OrganizationSummary, 'title' | 'avatar'>; size?: number }) {
  const logo = organization.avatar?.url ?? undefined;
  return (
    <Avatar
      variant="rounded"
      src={logo}
      alt=""
      aria-hidden
      sx={{
        width: logo ? size * 1.5 : size,
        height: size,
        bgcolor: logo ? 'common.white' : 'primary.main',
        color: 'primary.contrastText',
        fontWeight: 700,
        ...(logo && { border: 1, borderColor: 'divider', '& img': { objectFit: 'contain', p: '2px' } }),
      }}
    >
      {organization.title.trim().charAt(0).toUpperCase() || '?'}
    </Avatar>
  );
}
