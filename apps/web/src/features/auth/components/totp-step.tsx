import type { LoginChallenge, TotpSetup } from '@flotte/contract';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { PlainAlert } from '../../../components/plain/plain-alert';
import { PlainButton } from '../../../components/plain/plain-button';
import { PlainField } from '../../../components/plain/plain-field';
import { ApiError } from '../../../lib/api-error';
import { loginTotpSetup, loginWithTotp } from '../api/login';
import { RecoveryCodes } from '../../../components/recovery-codes';
import './login-form.css';

// The login's second step (decision 035), in plain elements like the login form (issue 10): the
// contract's rules are checked again here without zod.
const CODE_MESSAGE = 'Code invalide : 6 chiffres attendus';
const RECOVERY_MESSAGE = 'Code de secours invalide : 10 lettres ou chiffres attendus (ex. abcde-23456)';

function fieldError(value: string, useRecovery: boolean): string | undefined {
  if (useRecovery) {
    const code = value.replace(/[\s-]/g, '');
    if (code === '') return 'Le code de secours est obligatoire';
    return /^[a-z0-9]{10}$/i.test(code) ? undefined : RECOVERY_MESSAGE;
  }
  const code = value.replace(/\s/g, '');
  if (code === '') return 'Le code est obligatoire';
  return /^\d{6}$/.test(code) ? undefined : CODE_MESSAGE;
}

/** The key shown for a setup: its QR code (an SVG drawn by the API) and its text. */
function SetupKey({ setup }: { setup: TotpSetup }) {
  return (
    <div className="totp-step__setup">
      <img className="totp-step__qr" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrCodeSvg)}`} alt="QR code à scanner avec votre application d’authentification" width={176} height={176} />
      <p className="totp-step__hint">
        Ou saisissez cette clé dans l’application : <code className="totp-step__key">{setup.secret}</code>
      </p>
    </div>
  );
}

export function TotpStep({ challenge, onDone, onCancel }: { challenge: LoginChallenge; onDone: () => void; onCancel: () => void }) {
  const setupMode = challenge.mode === 'setup';
  const [value, setValue] = useState('');
  const [useRecovery, setUseRecovery] = useState(false);
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [apiMessage, setApiMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [codes, setCodes] = useState<{ recoveryCodes: string[]; enter: () => void } | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const sending = useRef(false);

  useEffect(() => {
    if (!setupMode) return;
    let live = true;
    loginTotpSetup(challenge.challenge).then(
      (answer) => live && setSetup(answer),
      (failure: unknown) => live && setApiMessage(failure instanceof ApiError ? failure.message : 'Impossible de préparer la double authentification. Veuillez réessayer.'),
    );
    return () => {
      live = false;
    };
  }, [challenge.challenge, setupMode]);

  const switchKind = () => {
    setUseRecovery((current) => !current);
    setValue('');
    setError(undefined);
    setApiMessage(null);
    inputRef.current?.focus();
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending.current) return;
    const found = fieldError(value, useRecovery);
    setError(found);
    if (found) {
      inputRef.current?.focus();
      return;
    }
    sending.current = true;
    setPending(true);
    setApiMessage(null);
    try {
      const proof = useRecovery ? { recoveryCode: value } : { code: value };
      const result = await loginWithTotp({ challenge: challenge.challenge, ...proof, rememberDevice: remember });
      if (result.recoveryCodes) {
        setCodes({ recoveryCodes: result.recoveryCodes, enter: result.enter });
      } else {
        result.enter();
        onDone();
      }
    } catch (failure) {
      if (failure instanceof ApiError) {
        const onField = failure.details.find((detail) => detail.path === 'code' || detail.path === 'recoveryCode');
        setError(onField?.message);
        setApiMessage(onField ? null : failure.message);
      } else {
        setApiMessage('Connexion impossible. Veuillez réessayer.');
      }
      inputRef.current?.focus();
    } finally {
      sending.current = false;
      setPending(false);
    }
  };

  if (codes) {
    return (
      <div className="login-form">
        <p className="totp-step__lead">La double authentification est activée.</p>
        <RecoveryCodes codes={codes.recoveryCodes} />
        <PlainButton
          fullWidth
          onClick={() => {
            codes.enter();
            onDone();
          }}
        >
          J’ai noté mes codes, continuer
        </PlainButton>
      </div>
    );
  }

  return (
    <form className="login-form" noValidate onSubmit={(event) => void onSubmit(event)}>
      {apiMessage && <PlainAlert>{apiMessage}</PlainAlert>}
      {setupMode ? (
        <>
          <p className="totp-step__lead">
            Votre espace exige la double authentification. Scannez ce QR code avec une application d’authentification (Google Authenticator, Microsoft Authenticator…), puis
            saisissez le code à 6 chiffres qu’elle affiche.
          </p>
          {setup && <SetupKey setup={setup} />}
        </>
      ) : (
        <p className="totp-step__lead">
          {useRecovery ? 'Saisissez l’un de vos codes de secours : il ne servira qu’une fois.' : 'Saisissez le code à 6 chiffres affiché par votre application d’authentification.'}
        </p>
      )}
      <PlainField
        key={useRecovery ? 'recovery' : 'code'}
        inputRef={inputRef}
        name={useRecovery ? 'recoveryCode' : 'code'}
        label={useRecovery ? 'Code de secours' : 'Code de vérification'}
        autoComplete={useRecovery ? 'off' : 'one-time-code'}
        inputMode={useRecovery ? 'text' : 'numeric'}
        autoCapitalize="none"
        spellCheck={false}
        autoFocus
        required
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          if (error) setError(fieldError(event.target.value, useRecovery));
        }}
        error={error}
      />
      {!setupMode && (
        <button type="button" className="pl-link-button totp-step__switch" onClick={switchKind}>
          {useRecovery ? 'Utiliser le code de l’application' : 'Utiliser un code de secours'}
        </button>
      )}
      <label className="totp-step__remember">
        <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.target.checked)} />
        Se souvenir de cet appareil pendant 30 jours
      </label>
      <PlainButton type="submit" fullWidth loading={pending}>
        {setupMode ? 'Activer et se connecter' : 'Vérifier'}
      </PlainButton>
      <button type="button" className="pl-link-button totp-step__back" onClick={onCancel}>
        Retour à la connexion
      </button>
    </form>
  );
}
