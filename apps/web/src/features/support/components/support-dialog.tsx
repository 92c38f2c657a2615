import BugReportOutlined from '@mui/icons-material/BugReportOutlined';
import CloseIcon from '@mui/icons-material/Close';
import EventAvailableOutlined from '@mui/icons-material/EventAvailableOutlined';
import LightbulbOutlined from '@mui/icons-material/LightbulbOutlined';
import OpenInNew from '@mui/icons-material/OpenInNew';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import type { ReportType } from '@flotte/contract';
import { Suspense, useState, type ReactNode } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { LoadingContent } from '../../../components/register/lazy-dialog';
import { useCurrentEnvironment } from '../api/get-current-environment';
import { useEnvironmentSuperadmin } from '../api/get-environment-superadmin';
import { SuperadminCard } from './superadmin-card';

type View = 'choices' | ReportType;

function Choice(props: { icon: ReactNode; primary: string; secondary: string; onClick?: () => void; href?: string; external?: boolean }) {
  const link = props.href ? { component: 'a' as const, href: props.href, target: '_blank', rel: 'noopener noreferrer' } : {};
  return (
    <ListItem disablePadding>
      <ListItemButton
        {...link}
        onClick={props.onClick}
        sx={{ border: 1, borderColor: 'divider', borderRadius: 2, py: 1.5 }}
      >
        <ListItemIcon sx={{ color: 'primary.main' }}>{props.icon}</ListItemIcon>
        <ListItemText
          primary={props.primary}
          secondary={props.secondary}
          slotProps={{ primary: { sx: { fontWeight: 600 } }, secondary: { color: 'text.secondary' } }}
        />
        {props.external && <OpenInNew fontSize="small" sx={{ color: 'text.secondary' }} titleAccess="Ouvre un nouvel onglet" />}
      </ListItemButton>
    </ListItem>
  );
}

function Choices({ enabled, onChoose }: { enabled: boolean; onChoose: (view: ReportType) => void }) {
  const environment = useCurrentEnvironment(enabled);
  const superadmin = useEnvironmentSuperadmin(environment.data?.uuid);
  const bookingUrl = environment.data?.bookingUrl;
  const settled = environment.isSuccess && (environment.data === null || superadmin.isSuccess);
  const canBook = settled && superadmin.data == null && Boolean(bookingUrl);

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <List disablePadding sx={{ display: 'grid', gap: 1 }}>
        <Choice
          icon={<BugReportOutlined />}
          primary="Signaler un bug"
          secondary="Quelque chose ne fonctionne pas comme prévu"
          onClick={() => onChoose('bug')}
        />
        <Choice
          icon={<LightbulbOutlined />}
          primary="Proposer une suggestion"
          secondary="Une idée pour améliorer FlotteAssur"
          onClick={() => onChoose('suggestion')}
        />
        {canBook && bookingUrl && (
          <Choice
            icon={<EventAvailableOutlined />}
            primary="Prendre un rendez-vous"
            secondary="30 minutes, en visio"
            href={bookingUrl}
            external
          />
        )}
      </List>
      {(environment.isPending || (environment.data && superadmin.isPending)) && (
        <Skeleton variant="rounded" height={88} aria-label="Chargement de votre interlocuteur" />
      )}
      {(environment.isError || superadmin.isError) && (
        <Alert severity="warning">Impossible de charger les informations de votre interlocuteur.</Alert>
      )}
      {superadmin.data && <SuperadminCard superadmin={superadmin.data} />}
    </Box>
  );
}

// Out of every page's first load (the dialog lives in the logged-in layout): fetched once a bug
// or a suggestion is chosen, or as soon as the dialog opens.
const ReportForm = lazyComponent(() => import('./report-form').then((module) => module.ReportForm));

/** 'Aide et support': a choice list, then the bug or the suggestion form. */
export function SupportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [view, setView] = useState<View>('choices');
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="support-dialog-title"
      slotProps={{ transition: { onEnter: ReportForm.preload, onExited: () => setView('choices') } }}
    >
      <DialogTitle id="support-dialog-title" sx={{ pr: 7 }}>
        Aide et support
      </DialogTitle>
      <IconButton aria-label="Fermer" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
        <CloseIcon />
      </IconButton>
      <DialogContent sx={{ pb: 3 }}>
        {view === 'choices' ? (
          <Choices enabled={open} onChoose={setView} />
        ) : (
          <Suspense fallback={<LoadingContent label="Chargement du formulaire…" />}>
            <ReportForm key={view} type={view} onBack={() => setView('choices')} />
          </Suspense>
        )}
      </DialogContent>
    </Dialog>
  );
}
