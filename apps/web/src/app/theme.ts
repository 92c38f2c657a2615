import { createTheme } from '@mui/material/styles';
import { frFR } from '@mui/material/locale';

export const SIDEBAR_WIDTH = 260;
export const ROOT_MENU_WIDTH = 72;

// Colours chosen for WCAG AA contrast on white and on the light grey background.
export const theme = createTheme(
  {
    palette: {
      mode: 'light',
      primary: { main: '#1d4ed8', dark: '#1e3a8a', light: '#dbe4ff', contrastText: '#ffffff' },
      secondary: { main: '#0f766e', contrastText: '#ffffff' },
      success: { main: '#15803d' },
      error: { main: '#c62828' },
      warning: { main: '#b45309' },
      info: { main: '#0369a1' },
      background: { default: '#f5f7fb', paper: '#ffffff' },
      text: { primary: '#111827', secondary: '#4b5563' },
      divider: '#e5e7eb',
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily:
        'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
      h1: { fontSize: '2rem', fontWeight: 700 },
      h4: { fontWeight: 700 },
      h5: { fontWeight: 700 },
      h6: { fontWeight: 600 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiCard: { defaultProps: { variant: 'outlined' } },
      MuiTextField: { defaultProps: { fullWidth: true } },
      MuiButtonBase: {
        styleOverrides: {
          // A visible keyboard focus everywhere, not only where MUI draws a ripple.
          root: {
            '&.Mui-focusVisible': { outline: '2px solid #1d4ed8', outlineOffset: 2 },
          },
        },
      },
      MuiLink: { defaultProps: { underline: 'hover' } },
      MuiCssBaseline: {
        styleOverrides: {
          // French puts a space before « ? ! : ; » and a line may break there, leaving « ? » or « : »
          // alone on the last line of a title or a question on a phone: the browser balances the
          // last lines instead (Chromium, Safari; others wrap as before).
          body: { textWrap: 'pretty' },
        },
      },
    },
  },
  frFR,
);
