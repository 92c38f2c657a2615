import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/**
 * Parts of one sentence, each a line of its own on a phone (below 600 px), one line separated by
 * spaces above. On a phone a sentence wrapped on two lines is a larger paint than a page's title:
 * the page's largest paint would wait for it instead of being the title of the page's frame
 * (decision 017's addition). Empty parts are left out.
 */
export function LinesOnAPhone({ parts }: { parts: readonly ReactNode[] }) {
  return parts
    .filter((part) => part !== null && part !== undefined && part !== false && part !== '')
    .map((part, index) => (
      // The space opens the part: collapsed at the start of a phone's line.
      <Box key={index} component="span" sx={{ display: { xs: 'block', sm: 'inline' } }}>
        {index > 0 && ' '}
        {part}
      </Box>
    ));
}
