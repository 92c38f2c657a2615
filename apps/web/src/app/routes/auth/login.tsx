import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { BrandLogo } from '../../../components/brand-logo';
import { DocumentTitle } from '../../../components/document-title';
import { LoginForm } from '../../../features/auth/components/login-form';
import { useAuth } from '../../../lib/auth-store';
import { safeRoute } from '../../../lib/safe-route';

const HIGHLIGHTS = [
  'Vos véhicules et vos conducteurs, au même endroit',
  'Le suivi de vos sinistres et de votre sinistralité',
  'Les alertes de prévention pour votre flotte',
];

export default function LoginRoute() {
  const { token } = useAuth();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const target = safeRoute(searchParams.get('route'));

  if (token) return <Navigate to={target} replace />;

  return (
    <Box component="main" sx={{ minHeight: '100dvh', display: 'grid', gridTemplateColumns: { xs: '1fr', md: '5fr 6fr' } }}>
      <DocumentTitle title="Connexion" />
      <Box
        sx={{
          display: { xs: 'none', md: 'flex' },
          flexDirection: 'column',
          justifyContent: 'space-between',
          p: 6,
          color: '#ffffff',
          background: 'linear-gradient(150deg, #1e3a8a 0%, #1d4ed8 55%, #2563eb 100%)',
        }}
      >
        <BrandLogo inverted />
        <Box sx={{ maxWidth: 440 }}>
          <Typography component="p" sx={{ fontSize: 30, fontWeight: 700, lineHeight: 1.25, mb: 3 }}>
            La gestion de votre flotte et de son assurance, simplement.
          </Typography>
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
            {HIGHLIGHTS.map((text) => (
              <Box component="li" key={text} sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
                <CheckCircleOutlined sx={{ color: '#bfdbfe' }} aria-hidden />
                <Typography>{text}</Typography>
              </Box>
            ))}
          </Box>
        </Box>
        <Typography variant="body2" sx={{ color: '#dbeafe' }}>
          © {new Date().getFullYear()} FlotteAssur
        </Typography>
      </Box>
      <Box sx={{ display: 'grid', placeItems: 'center', px: { xs: 2.5, sm: 4 }, py: 6, bgcolor: 'background.paper' }}>
        <Box sx={{ width: '100%', maxWidth: 400 }}>
          <Box sx={{ display: { md: 'none' }, mb: 4 }}>
            <BrandLogo />
          </Box>
          <Typography component="h1" variant="h4" sx={{ mb: 1 }}>
            Connexion
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 4 }}>
            Connectez-vous pour accéder à votre espace.
          </Typography>
          <LoginForm onSuccess={() => void navigate(target, { replace: true })} />
        </Box>
      </Box>
    </Box>
  );
}
