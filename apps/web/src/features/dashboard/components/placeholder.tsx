import Box from '@mui/material/Box';
import { alpha, keyframes } from '@mui/material/styles';

const pulse = keyframes`
  0% { opacity: 1; }
  50% { opacity: 0.4; }
  100% { opacity: 1; }
`;

/**
 * MUI's pulsing Skeleton, drawn with a Box: @mui/material/Skeleton, imported by two logged pages,
 * would move to the shared `ui` chunk every register loads (vite.config.ts, issue 10).
 */
export function Placeholder({ height, width = '100%' }: { height: number | string; width?: number | string }) {
  return (
    <Box
      aria-hidden
      sx={{
        height,
        width,
        borderRadius: 1,
        bgcolor: (theme) => alpha(theme.palette.text.primary, 0.11),
        animation: `${pulse} 2s ease-in-out 0.5s infinite`,
        '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
      }}
    />
  );
}
