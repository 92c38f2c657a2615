import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DocumentTitle } from '../document-title';

type ErrorPageProps = {
  statusCode: number;
  message: ReactNode;
  title: string;
  /** Language of `message` when it is not French (SPEC keeps an English 404 sentence). */
  messageLang?: string;
  showHomeLink?: boolean;
  action?: ReactNode;
};

/** Full-page error: big status code, message, and the way back. */
export function ErrorPage({ statusCode, message, title, messageLang, showHomeLink = false, action }: ErrorPageProps) {
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100dvh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        gap: 2,
        px: 3,
        bgcolor: 'background.default',
      }}
    >
      <DocumentTitle title={title} />
      <Typography
        aria-hidden
        sx={{ fontSize: { xs: 72, sm: 112 }, fontWeight: 800, lineHeight: 1, color: 'primary.main', letterSpacing: -2 }}
      >
        {statusCode}
      </Typography>
      <Typography component="h1" variant="h5" lang={messageLang} sx={{ fontWeight: 600, maxWidth: 560 }}>
        {message}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', justifyContent: 'center', mt: 1 }}>
        {showHomeLink && (
          <Button component={Link} to="/" variant="contained">
            Retour à l&apos;accueil
          </Button>
        )}
        {action}
      </Box>
    </Box>
  );
}
