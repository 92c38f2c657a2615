import Avatar from '@mui/material/Avatar';
import type { OrganizationSummary } from '@flotte/contract';

/** The organization's logo, or the first letter of its title. */
export function OrganizationAvatar({ organization, size = 40 }: { organization: Pick<OrganizationSummary, 'title' | 'avatar'>; size?: number }) {
  return (
    <Avatar
      variant="rounded"
      src={organization.avatar?.url ?? undefined}
      alt=""
      aria-hidden
      sx={{ width: size, height: size, bgcolor: 'primary.main', color: 'primary.contrastText', fontWeight: 700 }}
    >
      {organization.title.trim().charAt(0).toUpperCase() || '?'}
    </Avatar>
  );
}
