import { MAX_LENGTH } from './constants.js';
import { text } from './primitives.js';
import { UserSchema } from './users.js';
import { z } from './zod.js';

// Two-factor sign-in (issue 15, decision 035): a TOTP code from an authenticator app after the
// password, ten single-use recovery codes, and browsers remembered for 30 days.

export const TOTP_DIGITS = 6;
export const TOTP_RECOVERY_CODE_COUNT = 10;
export const TRUSTED_DEVICE_DAYS = 30;
/** Minutes between the password and the code (the challenge's life). */
export const LOGIN_CHALLENGE_MINUTES = 5;
/** The same when TOTP must first be set up: time to install an app and scan the QR code. */
export const LOGIN_SETUP_CHALLENGE_MINUTES = 15;

export const TOTP_CODE_WRONG_MESSAGE = 'Code incorrect ou déjà utilisé : saisissez le code affiché en ce moment par votre application.';
export const TOTP_RECOVERY_CODE_WRONG_MESSAGE = 'Code de secours incorrect ou déjà utilisé.';
export const LOGIN_CHALLENGE_EXPIRED_MESSAGE = 'Étape de connexion invalide ou expirée : saisissez à nouveau votre mot de passe.';
export const TOTP_REQUIRED_MESSAGE =
  'Votre espace exige la double authentification pour ses superadministrateurs : elle ne peut pas être désactivée.';

const strictBody = { error: (issue: { code: string; keys?: string[] }) => (issue.code === 'unrecognized_keys' ? `Champ non reconnu : ${issue.keys?.join(', ')}` : undefined) };

/** Six digits, spaces allowed (« 123 456 »). */
export const TotpCodeSchema = z
  .string({ error: 'Le code est obligatoire' })
  .max(20, { error: 'Code invalide : 6 chiffres attendus' })
  .transform((value) => value.replace(/\s/g, ''))
  .pipe(z.string().min(1, { error: 'Le code est obligatoire' }).regex(/^\d{6}$/, { error: 'Code invalide : 6 chiffres attendus' }));

/** « abcde-23456 »: case, spaces and the dash do not matter. */
export const RecoveryCodeSchema = z
  .string({ error: 'Le code de secours est obligatoire' })
  .max(30, { error: 'Code de secours invalide : 10 lettres ou chiffres attendus (ex. abcde-23456)' })
  .transform((value) => value.replace(/[\s-]/g, '').toLowerCase())
  .pipe(
    z
      .string()
      .min(1, { error: 'Le code de secours est obligatoire' })
      .regex(/^[a-z0-9]{10}$/, { error: 'Code de secours invalide : 10 lettres ou chiffres attendus (ex. abcde-23456)' }),
  );

const ChallengeTokenSchema = z
  .string({ error: LOGIN_CHALLENGE_EXPIRED_MESSAGE })
  .min(1, { error: LOGIN_CHALLENGE_EXPIRED_MESSAGE })
  .max(200, { error: LOGIN_CHALLENGE_EXPIRED_MESSAGE })
  .regex(/^[\w-]*$/, { error: LOGIN_CHALLENGE_EXPIRED_MESSAGE });

/**
 * The login's answer when a second step is needed: `code` (type a code, or a recovery code), or
 * `setup` (a SUPERADMIN whose environment requires TOTP sets it up before any session).
 */
export const LoginChallengeSchema = z.object({
  challenge: z.string(),
  mode: z.enum(['code', 'setup']),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type LoginChallenge = z.infer<typeof LoginChallengeSchema>;

/** POST /api/auth/login/totp: the challenge and a code (or a recovery code, in `code` mode only). */
export const LoginTotpBodySchema = z
  .strictObject(
    {
      challenge: ChallengeTokenSchema,
      code: TotpCodeSchema.optional(),
      recoveryCode: RecoveryCodeSchema.optional(),
      rememberDevice: z.boolean({ error: 'rememberDevice : vrai ou faux attendu' }).optional(),
    },
    strictBody,
  )
  .refine((body) => (body.code === undefined) !== (body.recoveryCode === undefined), {
    error: 'Saisissez le code de votre application, ou un code de secours',
    path: ['code'],
  });
export type LoginTotpBody = z.infer<typeof LoginTotpBodySchema>;

export const LoginTotpSetupBodySchema = z.strictObject({ challenge: ChallengeTokenSchema }, strictBody);
export type LoginTotpSetupBody = z.infer<typeof LoginTotpSetupBodySchema>;

/** The session the second step gives; `recoveryCodes` once, when it also finished a setup. */
export const LoginTotpResponseSchema = z.object({
  tokens: z.object({ access_token: z.string() }),
  user: UserSchema,
  recoveryCodes: z.array(z.string()).optional(),
});
export type LoginTotpResponse = z.infer<typeof LoginTotpResponseSchema>;

/** A setup under way: the key as a QR code (SVG, drawn by the API) and in text for manual entry. */
export const TotpSetupSchema = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  qrCodeSvg: z.string(),
});
export type TotpSetup = z.infer<typeof TotpSetupSchema>;

export const TotpStatusSchema = z.object({
  enabled: z.boolean(),
  enabledAt: z.iso.datetime({ offset: true }).nullable(),
  recoveryCodesLeft: z.number().int(),
  /** The user's environment requires it (a SUPERADMIN): it cannot be turned off. */
  required: z.boolean(),
});
export type TotpStatus = z.infer<typeof TotpStatusSchema>;

export const TotpCodeBodySchema = z.strictObject({ code: TotpCodeSchema }, strictBody);
export type TotpCodeBody = z.infer<typeof TotpCodeBodySchema>;

export const TotpRecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type TotpRecoveryCodes = z.infer<typeof TotpRecoveryCodesSchema>;

const currentPassword = text({ max: MAX_LENGTH.password, trim: false, label: 'Le mot de passe', missing: 'Le mot de passe est obligatoire' }).min(1, {
  error: 'Le mot de passe est obligatoire',
});

/** Turning it off: the current password and a code (or a recovery code, for a lost phone). */
export const TotpDisableBodySchema = z
  .strictObject(
    {
      password: currentPassword,
      code: TotpCodeSchema.optional(),
      recoveryCode: RecoveryCodeSchema.optional(),
    },
    strictBody,
  )
  .refine((body) => (body.code === undefined) !== (body.recoveryCode === undefined), {
    error: 'Saisissez le code de votre application, ou un code de secours',
    path: ['code'],
  });
export type TotpDisableBody = z.infer<typeof TotpDisableBodySchema>;

/** The account page's form to turn it off: the password and a code of the app. */
export const TotpDisableFormSchema = z.object({ password: currentPassword, code: TotpCodeSchema });
export type TotpDisableForm = z.infer<typeof TotpDisableFormSchema>;
