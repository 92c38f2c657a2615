import Box from '@mui/material/Box';
import type { ImportRevert } from '@flotte/contract';

/** The rows a revert left as they were, each with why (« AB-123-CD : modifié depuis l'import… »). */
export function RevertLeftList({ left }: { left: ImportRevert['left'] }) {
  if (left.length === 0) return null;
  return (
    <Box component="ul" sx={{ m: 0, mt: 1, pl: 2 }}>
      {left.map((row) => (
        <li key={row.uuid}>
          {row.label} : {row.reason}
        </li>
      ))}
    </Box>
  );
}
