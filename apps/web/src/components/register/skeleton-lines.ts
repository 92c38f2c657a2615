import { alpha, keyframes, type Theme } from '@mui/material/styles';
import type { SystemStyleObject } from '@mui/system';

const pulse = keyframes`
  0% { opacity: 1; }
  50% { opacity: 0.4; }
  100% { opacity: 1; }
`;

/**
 * MUI's text Skeleton (a line of the surrounding text's height, pulsing) for every element marked
 * `data-skeleton-line` inside: one style for a whole list's placeholders instead of a MUI
 * component per line (a page of skeleton rows was a few hundred components in a phone's first
 * render, issue 10).
 */
export const skeletonLinesSx: SystemStyleObject<Theme> = {
  '& [data-skeleton-line]': {
    display: 'block',
    height: 'auto',
    transformOrigin: '0 55%',
    transform: 'scale(1, 0.6)',
    borderRadius: '4px / 6.7px',
    bgcolor: (theme: Theme) => alpha(theme.palette.text.primary, 0.11),
    animation: `${pulse} 2s ease-in-out 0.5s infinite`,
    '&::before': { content: '"\\00a0"' },
    '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
  },
};
