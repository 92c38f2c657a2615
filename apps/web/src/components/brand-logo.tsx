import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** FlotteAssur wordmark; `inverted` for dark backgrounds. */
export function BrandLogo({ inverted = false }: { inverted?: boolean }) {
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1.25 }}>
      <Box
        component="svg"
        viewBox="0 0 64 64"
        aria-hidden
        sx={{ width: 36, height: 36, flexShrink: 0 }}
      >
        <rect width="64" height="64" rx="14" fill={inverted ? '#ffffff' : '#1d4ed8'} />
        <path d="M18 44V20h26v6H25v5h16v6H25v7z" fill={inverted ? '#1d4ed8' : '#ffffff'} />
      </Box>
      <Typography component="span" sx={{ fontSize: 22, fontWeight: 800, letterSpacing: -0.5, color: inverted ? '#ffffff' : 'text.primary' }}>
        Flotte<Box component="span" sx={{ color: inverted ? '#bfdbfe' : 'primary.main' }}>Assur</Box>
      </Typography>
    </Box>
  );
}
