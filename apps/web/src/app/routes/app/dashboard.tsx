import CarCrashOutlined from '@mui/icons-material/CarCrashOutlined';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import PercentOutlined from '@mui/icons-material/PercentOutlined';
import RuleOutlined from '@mui/icons-material/RuleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import type { ComponentType } from 'react';
import { DocumentTitle } from '../../../components/document-title';
import { RenewalReportButton } from '../../../features/renewal-report/components/renewal-report-button';
import { useCurrentUser } from '../../../lib/auth-store';

const UPCOMING: { title: string; text: string; icon: ComponentType<SvgIconProps> }[] = [
  {
    title: 'Sinistralité (S/P)',
    text: 'Le rapport entre le coût de vos sinistres et vos primes acquises.',
    icon: PercentOutlined,
  },
  {
    title: 'Fréquence des sinistres',
    text: 'Le nombre de sinistres rapporté au nombre de véhicules de votre flotte.',
    icon: CarCrashOutlined,
  },
  {
    title: 'Demi-différence',
    text: "L'écart entre votre sinistralité et les seuils fixés avec votre assureur.",
    icon: InsightsOutlined,
  },
  {
    title: 'Gestion des limites',
    text: 'Les seuils de sinistralité et de fréquence à surveiller.',
    icon: RuleOutlined,
  },
];

export default function DashboardRoute() {
  const user = useCurrentUser();
  const organization = user?.currentOrganizationUser?.organization ?? null;

  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <DocumentTitle title="Tableau de bord" />
      {/* Until the dashboard screen (branch `dashboard`) lands: the report of the default window, in its header's actions. */}
      {organization && (
        <Box sx={{ justifySelf: 'end' }}>
          <RenewalReportButton />
        </Box>
      )}
      <Box>
        <Typography component="h1" variant="h4">
          Tableau de bord
        </Typography>
        <Typography color="textSecondary" sx={{ mt: 0.5 }}>
          {user ? `Bonjour ${user.firstName}, ` : ''}
          {organization ? (
            <>
              bienvenue dans l&apos;espace de <strong>{organization.title}</strong>.
            </>
          ) : (
            'bienvenue sur FlotteAssur.'
          )}
        </Typography>
      </Box>

      {!organization && (
        <Alert severity="info">
          Aucune organisation n&apos;est sélectionnée : vos indicateurs s&apos;afficheront dès qu&apos;une organisation
          sera ajoutée à votre environnement.
        </Alert>
      )}

      <Box
        component="section"
        aria-labelledby="indicators-title"
        sx={{ display: 'grid', gap: 2 }}
      >
        <Typography id="indicators-title" component="h2" variant="h6">
          Vos indicateurs
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(4, 1fr)' } }}>
          {UPCOMING.map(({ title, text, icon: Icon }) => (
            <Card key={title} component="article" sx={{ height: '100%' }}>
              <CardContent sx={{ display: 'grid', gap: 1.5 }}>
                <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
                  <Box
                    sx={{ width: 40, height: 40, borderRadius: 2, display: 'grid', placeItems: 'center', bgcolor: 'primary.light', color: 'primary.dark' }}
                  >
                    <Icon aria-hidden />
                  </Box>
                  <Chip label="À venir" size="small" sx={{ bgcolor: '#eef2f7', color: '#374151', fontWeight: 600 }} />
                </Box>
                <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 700, lineHeight: 1.35 }}>
                  {title}
                </Typography>
                <Typography variant="body2" color="textSecondary">
                  {text}
                </Typography>
                <Typography variant="body2" sx={{ fontStyle: 'italic', color: 'text.secondary' }}>
                  Cet indicateur arrive bientôt.
                </Typography>
              </CardContent>
            </Card>
          ))}
        </Box>
      </Box>
    </Box>
  );
}
