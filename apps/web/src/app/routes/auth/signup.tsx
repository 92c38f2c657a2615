import { UnavailableAccountAction } from './unavailable-account-action';

export default function SignupRoute() {
  return (
    <UnavailableAccountAction title="Créer un compte">
      Pour le moment, les comptes sont créés par votre courtier ou par l&apos;administrateur de votre
      organisation : contactez-le pour recevoir votre accès à FlotteAssur.
    </UnavailableAccountAction>
  );
}
