import { UnavailableAccountAction } from './unavailable-account-action';

export default function RecoverRoute() {
  return (
    <UnavailableAccountAction title="Mot de passe oublié">
      Pour le moment, la réinitialisation du mot de passe se fait auprès de votre courtier ou de
      l&apos;administrateur de votre organisation : contactez-le pour recevoir un nouveau mot de passe.
    </UnavailableAccountAction>
  );
}
