import type { LoginChallenge } from '@flotte/contract';
import { Suspense, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { BrandLogo } from '../../../components/brand-logo';
import { DocumentTitle } from '../../../components/document-title';
import { lazyComponent } from '../../../components/lazy-component';
import { CheckCircleOutlinedIcon } from '../../../components/plain/plain-icons';
import { LoginForm } from '../../../features/auth/components/login-form';
import { useAuth } from '../../../lib/auth-store';
import { safeRoute } from '../../../lib/safe-route';
import { prefetchRoute } from '../../route-prefetch';
import { routes } from '../../router';
import './login.css';

// The first page of most visits, often on a phone: plain elements and a static CSS file, no MUI,
// emotion, react-hook-form, zod or TanStack Query in its chunks (issue 10).

// The second step of two-factor sign-in: only for the users who have it, out of the cold load.
const TotpStep = lazyComponent(() => import('../../../features/auth/components/totp-step').then((module) => module.TotpStep));

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
  const [challenge, setChallenge] = useState<LoginChallenge | null>(null);

  if (token) return <Navigate to={target} replace />;
  const enter = () => void navigate(target, { replace: true });

  // Once the person starts typing, the page after the login (built on MUI, heavier) downloads
  // while they finish: not before, so a visit that only looks costs a phone nothing more.
  const prefetchTarget = () => prefetchRoute(routes, target);

  return (
    <main className="login" onInputCapture={prefetchTarget}>
      <DocumentTitle title="Connexion" />
      <div className="login__panel">
        <BrandLogo inverted />
        <div className="login__pitch">
          <p className="login__tagline">La gestion de votre flotte et de son assurance, simplement.</p>
          <ul className="login__highlights">
            {HIGHLIGHTS.map((text) => (
              <li key={text}>
                <CheckCircleOutlinedIcon className="login__check" />
                <p>{text}</p>
              </li>
            ))}
          </ul>
        </div>
        <p className="login__copyright">© {new Date().getFullYear()} FlotteAssur</p>
      </div>
      <div className="login__side">
        <div className="login__content">
          <div className="login__logo">
            <BrandLogo />
          </div>
          {challenge ? (
            <>
              <h1 className="login__title">Double authentification</h1>
              <Suspense fallback={null}>
                <TotpStep challenge={challenge} onDone={enter} onCancel={() => setChallenge(null)} />
              </Suspense>
            </>
          ) : (
            <>
              <h1 className="login__title">Connexion</h1>
              <p className="login__subtitle">Connectez-vous pour accéder à votre espace.</p>
              <LoginForm onSuccess={enter} onChallenge={setChallenge} />
            </>
          )}
        </div>
      </div>
    </main>
  );
}
