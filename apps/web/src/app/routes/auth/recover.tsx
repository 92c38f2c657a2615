import { Navigate, useLocation } from 'react-router';

/** « Mot de passe oublié ? » leads here: the recovery starts at /recover/email (its query kept). */
export default function RecoverRoute() {
  const { search } = useLocation();
  return <Navigate to={`/recover/email${search}`} replace />;
}
