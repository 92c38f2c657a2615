import type { LoginChallenge } from '@flotte/contract';
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { PlainAlert } from '../../../components/plain/plain-alert';
import { PlainButton } from '../../../components/plain/plain-button';
import { PlainField } from '../../../components/plain/plain-field';
import { VisibilityIcon, VisibilityOffIcon } from '../../../components/plain/plain-icons';
import { ApiError } from '../../../lib/api-error';
import { login } from '../api/login';
import { emailError, passwordError, validateLogin, type LoginErrors, type LoginField } from '../login-messages';
import './login-form.css';

// Plain React state and plain elements: the login page's cold load carries neither MUI nor
// react-hook-form, zod or TanStack Query (issue 10). It behaves as the form did with
// react-hook-form: checked on submit, then again on each change; the first wrong field focused.

const FIELDS = new Set<string>(['email', 'password']);
const CHECKS: Record<LoginField, (value: string) => string | undefined> = { email: emailError, password: passwordError };

/** `onChallenge`: the password was right, a second step comes (two-factor sign-in, decision 035). */
export function LoginForm({ onSuccess, onChallenge }: { onSuccess: () => void; onChallenge: (challenge: LoginChallenge) => void }) {
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<LoginErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const [apiMessage, setApiMessage] = useState<string | null>(null);
  // The right password of an address not yet confirmed (decision 033): the way to a new link.
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);
  const [showPassword, setShowPassword] = useState(false);
  const sending = useRef(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const change = (field: LoginField) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    // After a first submit, each change checks its field again (and clears the server's error on it).
    if (submitted) setErrors((current) => ({ ...current, [field]: CHECKS[field](value) }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending.current) return;
    setSubmitted(true);
    const { errors: found, body } = validateLogin(values);
    setErrors(found);
    if (!body) {
      (found.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    sending.current = true;
    setPending(true);
    setApiMessage(null);
    setUnconfirmed(null);
    try {
      const outcome = await login(body);
      if (outcome.challenge) onChallenge(outcome.challenge);
      else onSuccess();
    } catch (error) {
      if (error instanceof ApiError) {
        const onFields: LoginErrors = {};
        for (const detail of error.details) {
          if (FIELDS.has(detail.path)) onFields[detail.path as LoginField] = detail.message;
        }
        const notConfirmed = error.status === 403 && error.details.some((detail) => detail.path === 'email');
        setErrors(notConfirmed ? {} : onFields);
        setApiMessage(error.message);
        if (notConfirmed) setUnconfirmed(body.email);
      } else {
        setApiMessage('Connexion impossible. Veuillez réessayer.');
      }
    } finally {
      sending.current = false;
      setPending(false);
    }
  };

  return (
    <form className="login-form" noValidate onSubmit={(event) => void onSubmit(event)}>
      {apiMessage && (
        <PlainAlert>
          {apiMessage}
          {unconfirmed && (
            <>
              {' '}
              <Link className="pl-link" to={`/signup/confirmation?email=${encodeURIComponent(unconfirmed)}`}>
                Renvoyer l’e-mail de confirmation
              </Link>
            </>
          )}
        </PlainAlert>
      )}
      <PlainField
        inputRef={emailRef}
        name="email"
        label="Adresse e-mail"
        type="email"
        autoComplete="email"
        autoFocus
        required
        value={values.email}
        onChange={change('email')}
        error={errors.email}
      />
      <PlainField
        inputRef={passwordRef}
        name="password"
        label="Mot de passe"
        type={showPassword ? 'text' : 'password'}
        autoComplete="current-password"
        required
        value={values.password}
        onChange={change('password')}
        error={errors.password}
        endAdornment={
          <button
            type="button"
            className="pl-icon-button"
            aria-label={showPassword ? 'Masquer le mot de passe' : 'Afficher le mot de passe'}
            onClick={() => setShowPassword((shown) => !shown)}
          >
            {showPassword ? <VisibilityOffIcon /> : <VisibilityIcon />}
          </button>
        }
      />
      <div className="login-form__forgot">
        <Link className="pl-link" to="/recover">
          Mot de passe oublié ?
        </Link>
      </div>
      <PlainButton type="submit" fullWidth loading={pending}>
        Se connecter
      </PlainButton>
      <div className="login-form__signup">
        Pas encore de compte ?{' '}
        <Link className="pl-link" to="/signup">
          Créer un compte
        </Link>
      </div>
    </form>
  );
}
