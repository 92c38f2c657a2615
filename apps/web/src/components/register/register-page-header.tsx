import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { LinesOnAPhone } from '../lines-on-a-phone';
import { DocumentTitle } from '../document-title';
import { AddButton } from './add-button';
import type { RegisterTexts } from './register-texts';

export type RegisterPageHeaderProps = {
  /** `title`: the h1 and the document title ('Conducteurs'); `add`: the button ('Ajouter un conducteur'). */
  texts: Pick<RegisterTexts, 'title' | 'add'>;
  /**
   * The line under the title, e.g. '12 conducteurs actifs · 3 archivés'; its room is kept while it
   * loads (undefined). In parts, each part is a line of its own on a phone (one line from 600 px):
   * a summary wrapped on two lines of a phone would be a larger paint than the title, and the
   * page's largest paint would wait for the list instead of being the title of the page's frame
   * (decision 017's addition).
   */
  summary?: string | readonly string[];
  onAdd: () => void;
  /** The add button hovered, focused or touched: fetch the form (useRegisterActions' `preload`). */
  onAddIntent?: () => void;
  /** Other actions of the register, before the add button (e.g. 'Importer'). */
  actions?: ReactNode;
};

/** A register screen's top: its title, what it holds, and the button to add to it. */
export function RegisterPageHeader({ texts, summary, onAdd, onAddIntent, actions }: RegisterPageHeaderProps) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2 }}>
      <DocumentTitle title={texts.title} />
      <Box sx={{ minWidth: 0 }}>
        <Typography component="h1" variant="h4">
          {texts.title}
        </Typography>
        <Typography color="textSecondary" sx={{ mt: 0.5, minHeight: '1.5em' }}>
          {typeof summary === 'string' || summary === undefined ? summary : <LinesOnAPhone parts={summary} />}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, flexShrink: 0 }}>
        {actions}
        <AddButton label={texts.add} onClick={onAdd} onIntent={onAddIntent} />
      </Box>
    </Box>
  );
}
