import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { TotpCodeBodySchema, TotpDisableFormSchema, type TotpSetup } from '@flotte/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormTextField } from '../../../components/form/form-text-field';
import { RecoveryCodes } from '../../../components/recovery-codes';
import { SectionCard } from '../../../components/section-card';
import { snackbar } from '../../../components/snackbar/snackbar';
import { ApiError } from '../../../lib/api-error';
import { formatDate } from '../../../lib/format';
import { disableTotp, enableTotp, renewRecoveryCodes, startTotpSetup, totpStatusQuery } from '../api/totp';

type CodeForm = { code: string };
type DisableForm = { password: string; code: string };

/** Puts the API's field errors on the form's fields; the message in a snackbar. */
function showFailure(error: unknown, title: string, setError: (field: 'code' | 'password', message: string) => void) {
  const apiError = error instanceof ApiError ? error : null;
  for (const detail of apiError?.details ?? []) {
    if (detail.path === 'code' || detail.path === 'password') setError(detail.path, detail.message);
  }
  snackbar.show({ type: 'error', title, description: apiError?.message ?? 'Réessayez dans un instant.' });
}

/** A form asking one code of the app (to enable, or to renew the recovery codes). */
function CodeStep({ submitLabel, onCode, onCancel, failureTitle }: { submitLabel: string; onCode: (code: string) => Promise<void>; onCancel: () => void; failureTitle: string }) {
  const { control, handleSubmit, setError, formState } = useForm<CodeForm>({ resolver: zodResolver(TotpCodeBodySchema), defaultValues: { code: '' } });
  const onSubmit = handleSubmit(async ({ code }) => {
    try {
      await onCode(code);
    } catch (error) {
      showFailure(error, failureTitle, (field, message) => field === 'code' && setError('code', { message }, { shouldFocus: true }));
    }
  });
  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
      <FormTextField
        control={control}
        name="code"
        label="Code à 6 chiffres"
        autoComplete="one-time-code"
        required
        sx={{ width: { xs: '100%', sm: 220 } }}
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
      />
      <Box sx={{ display: 'flex', gap: 1, mt: 1 }}>
        <Button type="submit" variant="contained" loading={formState.isSubmitting}>
          {submitLabel}
        </Button>
        <Button onClick={onCancel}>Annuler</Button>
      </Box>
    </Box>
  );
}

function DisableStep({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const { control, handleSubmit, setError, formState } = useForm<DisableForm>({ resolver: zodResolver(TotpDisableFormSchema), defaultValues: { password: '', code: '' } });
  const onSubmit = handleSubmit(async ({ password, code }) => {
    try {
      await disableTotp({ password, code });
      snackbar.show({ type: 'success', title: 'Double authentification désactivée' });
      onDone();
    } catch (error) {
      showFailure(error, 'Double authentification toujours active', (field, message) => setError(field, { message }, { shouldFocus: true }));
    }
  });
  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2 }}>
      <Typography variant="body2" color="textSecondary">
        Confirmez avec votre mot de passe actuel et un code de votre application.
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, alignItems: 'start' }}>
        <FormTextField control={control} name="password" label="Mot de passe actuel" type="password" autoComplete="current-password" required />
        <FormTextField control={control} name="code" label="Code à 6 chiffres" autoComplete="one-time-code" required slotProps={{ htmlInput: { inputMode: 'numeric' } }} />
      </Box>
      <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
        <Button onClick={onCancel}>Annuler</Button>
        <Button type="submit" variant="contained" color="error" loading={formState.isSubmitting}>
          Désactiver
        </Button>
      </Box>
    </Box>
  );
}

type Step = { kind: 'idle' } | { kind: 'setup'; setup: TotpSetup } | { kind: 'codes'; codes: string[] } | { kind: 'renew' } | { kind: 'disable' };

/**
 * « Double authentification » of /account (decision 035): set up with a QR code (drawn by the
 * API) or the key in text, confirmed by a code; ten recovery codes shown once; renewed or turned
 * off with a code.
 */
export function TwoFactorSection() {
  const queryClient = useQueryClient();
  const status = useQuery(totpStatusQuery);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [starting, setStarting] = useState(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: totpStatusQuery.queryKey });
  const idle = () => setStep({ kind: 'idle' });
  /** Ten new recovery codes: shown once, the status read again. */
  const showCodes = (codes: string[]) => {
    setStep({ kind: 'codes', codes });
    refresh();
  };

  const start = async () => {
    setStarting(true);
    try {
      setStep({ kind: 'setup', setup: await startTotpSetup() });
    } catch (error) {
      showFailure(error, 'Activation impossible', () => undefined);
    } finally {
      setStarting(false);
    }
  };

  const current = status.data;
  let body;
  if (!current) {
    body = status.isError ? <Alert severity="error">La double authentification n’a pas pu être chargée.</Alert> : <Typography variant="body2">Chargement…</Typography>;
  } else if (step.kind === 'codes') {
    body = (
      <Box sx={{ display: 'grid', gap: 2 }}>
        <RecoveryCodes codes={step.codes} />
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button variant="contained" onClick={idle}>
            J’ai noté mes codes
          </Button>
        </Box>
      </Box>
    );
  } else if (step.kind === 'setup') {
    body = (
      <Box sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="body2">
          1. Scannez ce QR code avec une application d’authentification (Google Authenticator, Microsoft Authenticator, FreeOTP…).
        </Typography>
        <Box
          component="img"
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(step.setup.qrCodeSvg)}`}
          alt="QR code à scanner avec votre application d’authentification"
          width={176}
          height={176}
          sx={{ border: 1, borderColor: 'divider', borderRadius: 2, bgcolor: '#fff', justifySelf: { xs: 'center', sm: 'start' } }}
        />
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          Ou saisissez cette clé à la main :{' '}
          <Box component="code" data-testid="totp-key" sx={{ fontFamily: 'monospace', fontWeight: 700 }}>
            {step.setup.secret}
          </Box>
        </Typography>
        <Typography variant="body2">2. Saisissez le code à 6 chiffres affiché par l’application.</Typography>
        <CodeStep
          submitLabel="Activer"
          failureTitle="Double authentification non activée"
          onCancel={idle}
          onCode={async (code) => {
            const { recoveryCodes } = await enableTotp({ code });
            snackbar.show({ type: 'success', title: 'Double authentification activée' });
            showCodes(recoveryCodes);
          }}
        />
      </Box>
    );
  } else if (!current.enabled) {
    body = (
      <Box sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="body2">Désactivée. Une fois activée, un code de votre application vous sera demandé après le mot de passe.</Typography>
        {current.required && <Alert severity="warning">Votre espace l’exige : elle vous sera demandée à la prochaine connexion.</Alert>}
        <Box>
          <Button variant="contained" loading={starting} onClick={() => void start()}>
            Activer la double authentification
          </Button>
        </Box>
      </Box>
    );
  } else {
    body = (
      <Box sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="body2">
          Activée{current.enabledAt ? ` depuis le ${formatDate(current.enabledAt)}` : ''}. Codes de secours restants : {current.recoveryCodesLeft} sur 10.
        </Typography>
        {current.required && <Alert severity="info">Votre espace l’exige pour ses superadministrateurs : elle ne peut pas être désactivée.</Alert>}
        {step.kind === 'renew' ? (
          <Box sx={{ display: 'grid', gap: 1 }}>
            <Typography variant="body2" color="textSecondary">
              Les codes de secours actuels ne serviront plus. Saisissez un code de votre application :
            </Typography>
            <CodeStep
              submitLabel="Générer de nouveaux codes"
              failureTitle="Codes de secours inchangés"
              onCancel={idle}
              onCode={async (code) => showCodes((await renewRecoveryCodes({ code })).recoveryCodes)}
            />
          </Box>
        ) : step.kind === 'disable' ? (
          <DisableStep
            onCancel={idle}
            onDone={() => {
              idle();
              refresh();
            }}
          />
        ) : (
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button variant="outlined" onClick={() => setStep({ kind: 'renew' })}>
              Nouveaux codes de secours
            </Button>
            {!current.required && (
              <Button variant="outlined" color="error" onClick={() => setStep({ kind: 'disable' })}>
                Désactiver
              </Button>
            )}
          </Box>
        )}
      </Box>
    );
  }

  return (
    <SectionCard id="double-authentification" title="Double authentification" description="Un code d’une application d’authentification, demandé après le mot de passe.">
      {body}
    </SectionCard>
  );
}
