import type { User } from '@flotte/contract';
import { SectionCard } from '../../../components/section-card';
import { AccountForm } from './account-form';
import { PasswordForm } from './password-form';

/** « Informations personnelles » of /account: names, phone (French formats), description. */
export function ProfileSection({ user }: { user: User }) {
  return (
    <SectionCard id="informations" title="Informations personnelles">
      {/* Keyed by user: a saved or switched user starts a fresh form. */}
      <AccountForm key={user.uuid} user={user} />
    </SectionCard>
  );
}

/** « Mot de passe » of /account: the current one, the new one twice; the other sessions end. */
export function PasswordSection({ user }: { user: User }) {
  return (
    <SectionCard id="mot-de-passe" title="Mot de passe">
      <PasswordForm key={user.uuid} />
    </SectionCard>
  );
}
