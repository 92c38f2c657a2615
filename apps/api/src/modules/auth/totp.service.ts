import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import {
  LOGIN_CHALLENGE_EXPIRED_MESSAGE,
  LOGIN_CHALLENGE_MINUTES,
  LOGIN_SETUP_CHALLENGE_MINUTES,
  type LoginChallenge,
  TOTP_CODE_WRONG_MESSAGE,
  TOTP_RECOVERY_CODE_COUNT,
  TOTP_RECOVERY_CODE_WRONG_MESSAGE,
  TOTP_REQUIRED_MESSAGE,
  TRUSTED_DEVICE_DAYS,
  type TotpSetup,
  type TotpStatus,
} from '@flotte/contract';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Database } from '../../db/client.js';
import { readSystem, withSystem, type WriteTx } from '../../db/scope.js';
import { BadRequestError, ConflictError, TooManyRequestsError, UnauthorizedError } from '../../errors.js';
import type { FailureStore } from '../../lib/failure-limiter.js';
import { DEFAULT_LOGIN_LIMITS, LoginLimits, type LoginLimitsOptions, tooManyAttemptsMessage } from '../../lib/login-limits.js';
import { hashRefreshToken as sha256 } from '../../lib/tokens.js';
import { securityEvent } from '../../plugins/request-log.js';
import { revokeUserFamilies } from './auth.repository.js';
import * as repo from './totp.repository.js';

/** The name authenticator apps show beside the account. */
export const TOTP_ISSUER = 'FlotteAssur';
const PERIOD_SECONDS = 30;
/** Codes of the step before and after are accepted too (a phone's clock a little off). */
const TOLERANCE_SECONDS = PERIOD_SECONDS;
/** Recovery codes: 10 characters without the look-alikes (0/o, 1/l/i), shown as « abcde-23456 ». */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const codeError = (path: 'code' | 'recoveryCode', message: string) => new BadRequestError(message, [{ path, message }]);

export type TotpServiceOptions = {
  appSecret: string;
  /** The login limits' store (decision 014): a wrong code counts as a wrong password. */
  failureStore?: FailureStore;
  loginLimits?: LoginLimitsOptions;
  now?: () => number;
};

/** The outcome of a second step: whose session to open, and what to hand back with it. */
export type PassedChallenge = { userUuid: string; recoveryCodes?: string[]; device?: { token: string; expiresAt: Date } };

/** Whether the user signs in with a code (for the environment's requirement, decision 040). */
export const hasTotpEnabled = repo.hasTotpEnabled;

/**
 * Two-factor sign-in (decision 035): keys encrypted at rest (AES-256-GCM, key derived from
 * APP_SECRET), codes checked by otplib and never accepted twice, recovery codes kept as an HMAC,
 * login challenges and remembered browsers kept as SHA-256. All of it a user's own data, in
 * system scope like the refresh tokens.
 */
export function createTotpService(db: Database, options: TotpServiceOptions) {
  const encryptionKey = Buffer.from(hkdfSync('sha256', options.appSecret, 'flotteassur', 'totp-secret', 32));
  const recoveryKey = Buffer.from(hkdfSync('sha256', options.appSecret, 'flotteassur', 'totp-recovery-code', 32));
  const limits = new LoginLimits(options.failureStore, options.loginLimits ?? DEFAULT_LOGIN_LIMITS);
  const now = options.now ?? (() => Date.now());

  function encrypt(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
    const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  function decrypt(stored: string): string {
    const [version, iv = '', tag = '', data = ''] = stored.split('.');
    if (version !== 'v1') throw new Error('TOTP secret: unknown format');
    const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }

  const hashRecoveryCode = (code: string) => createHmac('sha256', recoveryKey).update(code.replace(/[\s-]/g, '').toLowerCase()).digest('base64url');

  function newRecoveryCodes(): string[] {
    return Array.from({ length: TOTP_RECOVERY_CODE_COUNT }, () => {
      const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
      return `${chars.slice(0, 5)}-${chars.slice(5)}`;
    });
  }

  async function writeRecoveryCodes(tx: WriteTx, userUuid: string) {
    const codes = newRecoveryCodes();
    await repo.replaceRecoveryCodes(tx, userUuid, codes.map(hashRecoveryCode));
    return codes;
  }

  /** 429 for an address that failed too often on the account; the account's slow-down otherwise. */
  async function admit(account: string, ip: string) {
    const admission = await limits.admission(account, ip);
    if (admission.retryAfter > 0) throw new TooManyRequestsError(tooManyAttemptsMessage(admission.retryAfter), admission.retryAfter);
    if (admission.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, admission.delayMs));
    return admission;
  }

  /**
   * Checks a code against the key (the pending one during a setup) and records its step: the
   * same code, or an older one, is refused afterwards. Within the caller's transaction.
   */
  async function acceptCode(tx: WriteTx, userUuid: string, storedSecret: string, code: string): Promise<boolean> {
    const epoch = Math.floor(now() / 1000);
    const result = await verify({ secret: decrypt(storedSecret), token: code, epoch, epochTolerance: TOLERANCE_SECONDS });
    if (!result.valid || !('timeStep' in result)) return false;
    return repo.claimStep(tx, userUuid, result.timeStep);
  }

  /**
   * Runs `check` (a code, or a recovery code) under the login limits of the account; a refusal
   * counts as a failed login and writes nothing else.
   */
  async function guarded<T>(userUuid: string, ip: string, check: (tx: WriteTx) => Promise<T | false>, refusal: BadRequestError): Promise<T> {
    const email = await readSystem(db, (tx) => repo.findUserEmail(tx, userUuid));
    if (!email) throw new UnauthorizedError(LOGIN_CHALLENGE_EXPIRED_MESSAGE);
    const account = email.toLowerCase();
    const admission = await admit(account, ip);
    let outcome: T | false;
    try {
      outcome = await withSystem(db, async (tx) => {
        const result = await check(tx);
        // Nothing a refused check did is kept.
        if (result === false) throw refusal;
        return result;
      });
    } catch (error) {
      if (error === refusal) {
        await limits.recordFailure(account, ip);
        throw refusal;
      }
      throw error;
    }
    if (admission.pairFailures > 0) await limits.recordSuccess(account, ip);
    return outcome;
  }

  async function setupFor(userUuid: string): Promise<TotpSetup> {
    const email = await readSystem(db, (tx) => repo.findUserEmail(tx, userUuid));
    if (!email) throw new UnauthorizedError(LOGIN_CHALLENGE_EXPIRED_MESSAGE);
    const secret = generateSecret();
    const saved = await withSystem(db, (tx) => repo.savePendingSecret(tx, userUuid, encrypt(secret)));
    if (!saved) throw new ConflictError('La double authentification est déjà activée sur ce compte.');
    const otpauthUrl = generateURI({ issuer: TOTP_ISSUER, label: email, secret });
    const qrCodeSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    // Shown in groups of four for typing by hand; apps ignore the spaces.
    return { secret: secret.replace(/(.{4})(?=.)/g, '$1 '), otpauthUrl, qrCodeSvg };
  }

  /** Checks a code of the enabled key, or spends a recovery code. */
  async function checkSecondFactor(tx: WriteTx, userUuid: string, proof: { code?: string; recoveryCode?: string }) {
    const totp = await repo.findTotp(tx, userUuid);
    if (!totp?.enabledAt) return false;
    if (proof.code !== undefined) return acceptCode(tx, userUuid, totp.secret, proof.code);
    if (proof.recoveryCode !== undefined) return repo.claimRecoveryCode(tx, userUuid, hashRecoveryCode(proof.recoveryCode));
    return false;
  }

  const proofRefusal = (proof: { code?: string }) =>
    proof.code !== undefined ? codeError('code', TOTP_CODE_WRONG_MESSAGE) : codeError('recoveryCode', TOTP_RECOVERY_CODE_WRONG_MESSAGE);

  async function rememberDevice(tx: WriteTx, userUuid: string) {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now() + TRUSTED_DEVICE_DAYS * 24 * 3600_000);
    await repo.insertTrustedDevice(tx, { userUuid, tokenHash: sha256(token), expiresAt });
    return { token, expiresAt };
  }

  return {
    /**
     * After the right password: null when the session may open (no TOTP, or a remembered
     * browser), else the challenge of the second step: `code`, or `setup` for a SUPERADMIN
     * whose environment requires TOTP and who has none.
     */
    async challengeAfterPassword(userUuid: string, deviceToken: string | undefined): Promise<LoginChallenge | null> {
      const { totp, required, trusted } = await readSystem(db, async (tx) => ({
        totp: await repo.findTotp(tx, userUuid),
        required: await repo.isTotpRequired(tx, userUuid),
        trusted: deviceToken ? await repo.isTrustedDevice(tx, userUuid, sha256(deviceToken)) : false,
      }));
      const mode = totp?.enabledAt ? 'code' : required ? 'setup' : null;
      if (!mode || (mode === 'code' && trusted)) return null;
      const challenge = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now() + (mode === 'setup' ? LOGIN_SETUP_CHALLENGE_MINUTES : LOGIN_CHALLENGE_MINUTES) * 60_000);
      await withSystem(db, (tx) => repo.insertChallenge(tx, { userUuid, tokenHash: sha256(challenge), mode, expiresAt }));
      return { challenge, mode, expiresAt: expiresAt.toISOString() };
    },

    /** The key of a setup asked at login (`setup` challenges only). */
    async setupForChallenge(challenge: string): Promise<TotpSetup> {
      const row = await readSystem(db, (tx) => repo.findLiveChallenge(tx, sha256(challenge)));
      if (!row || row.mode !== 'setup') throw new UnauthorizedError(LOGIN_CHALLENGE_EXPIRED_MESSAGE);
      return setupFor(row.userUuid);
    },

    /**
     * The second step: a code (or a recovery code) for a `code` challenge; the first code of
     * the new key for a `setup` one, which enables it and hands out the recovery codes. The
     * challenge serves once; a wrong code leaves it for another try, within the login limits.
     */
    async passChallenge(body: { challenge: string; code?: string; recoveryCode?: string; rememberDevice?: boolean }, ip: string): Promise<PassedChallenge> {
      // A refused second step is a failed login (plugins/request-log.ts), with the user the challenge names.
      const failed = (reason: string, userUuid: string | null) => securityEvent('login.failed', { userUuid, organizationUuid: null, reason });
      const row = await readSystem(db, (tx) => repo.findLiveChallenge(tx, sha256(body.challenge)));
      if (!row) {
        failed('challenge-expired', null);
        throw new UnauthorizedError(LOGIN_CHALLENGE_EXPIRED_MESSAGE);
      }
      const { userUuid } = row;
      if (row.mode === 'setup' && body.code === undefined) {
        failed('wrong-second-factor', userUuid);
        throw codeError('recoveryCode', 'Configurez d’abord la double authentification avec le code de votre application.');
      }
      const reasonOf = (error: unknown) =>
        error instanceof TooManyRequestsError ? 'too-many-attempts' : error instanceof UnauthorizedError ? 'challenge-expired' : 'wrong-second-factor';
      return guarded(
        userUuid,
        ip,
        async (tx) => {
          let recoveryCodes: string[] | undefined;
          if (row.mode === 'setup') {
            const totp = await repo.findTotp(tx, userUuid);
            if (!totp || totp.enabledAt || !(await acceptCode(tx, userUuid, totp.secret, body.code!))) return false;
            await repo.markEnabled(tx, userUuid);
            recoveryCodes = await writeRecoveryCodes(tx, userUuid);
          } else if (!(await checkSecondFactor(tx, userUuid, body))) {
            return false;
          }
          if (!(await repo.claimChallenge(tx, row.uuid))) throw new UnauthorizedError(LOGIN_CHALLENGE_EXPIRED_MESSAGE);
          const device = body.rememberDevice ? await rememberDevice(tx, userUuid) : undefined;
          return { userUuid, recoveryCodes, device };
        },
        proofRefusal(body),
      ).catch((error: unknown) => {
        failed(reasonOf(error), userUuid);
        throw error;
      });
    },

    async status(userUuid: string): Promise<TotpStatus> {
      return readSystem(db, async (tx) => {
        const [totp, required, left] = await Promise.all([repo.findTotp(tx, userUuid), repo.isTotpRequired(tx, userUuid), repo.countRecoveryCodesLeft(tx, userUuid)]);
        const enabled = Boolean(totp?.enabledAt);
        return { enabled, enabledAt: totp?.enabledAt?.toISOString() ?? null, recoveryCodesLeft: enabled ? left : 0, required };
      });
    },

    /** Account page: a new key to scan (replaces an unfinished setup; 409 once enabled). */
    startSetup: setupFor,

    /** Account page: the first code of the new key enables it; the recovery codes are shown once. */
    async enable(userUuid: string, code: string, ip: string): Promise<string[]> {
      const totp = await readSystem(db, (tx) => repo.findTotp(tx, userUuid));
      if (totp?.enabledAt) throw new ConflictError('La double authentification est déjà activée sur ce compte.');
      if (!totp) throw new BadRequestError('Commencez par afficher le QR code à scanner.');
      return guarded(
        userUuid,
        ip,
        async (tx) => {
          if (!(await acceptCode(tx, userUuid, totp.secret, code)) || !(await repo.markEnabled(tx, userUuid))) return false;
          return writeRecoveryCodes(tx, userUuid);
        },
        codeError('code', TOTP_CODE_WRONG_MESSAGE),
      );
    },

    /** New recovery codes (a code of the app required); the old ones stop working. */
    async regenerateRecoveryCodes(userUuid: string, code: string, ip: string): Promise<string[]> {
      return guarded(
        userUuid,
        ip,
        async (tx) => ((await checkSecondFactor(tx, userUuid, { code })) ? writeRecoveryCodes(tx, userUuid) : false),
        codeError('code', TOTP_CODE_WRONG_MESSAGE),
      );
    },

    /**
     * Turns TOTP off once the password (checked by the caller) and a code are right; refused to
     * a SUPERADMIN whose environment requires it.
     */
    async disable(userUuid: string, proof: { code?: string; recoveryCode?: string }, ip: string): Promise<void> {
      const { totp, required } = await readSystem(db, async (tx) => ({ totp: await repo.findTotp(tx, userUuid), required: await repo.isTotpRequired(tx, userUuid) }));
      if (!totp?.enabledAt) throw new BadRequestError('La double authentification n’est pas activée sur ce compte.');
      if (required) throw new BadRequestError(TOTP_REQUIRED_MESSAGE);
      await guarded(
        userUuid,
        ip,
        async (tx) => {
          if (!(await checkSecondFactor(tx, userUuid, proof))) return false;
          await repo.deleteTotp(tx, userUuid);
          return true;
        },
        proofRefusal(proof),
      );
    },

    /** Tests and the seed: the key in clear. */
    async secretOf(userUuid: string): Promise<string | null> {
      const totp = await readSystem(db, (tx) => repo.findTotp(tx, userUuid));
      return totp ? decrypt(totp.secret) : null;
    },
  };
}
export type TotpService = ReturnType<typeof createTotpService>;

/**
 * Someone else turns a user's second factor off (the broker for a member who lost it): the key,
 * recovery codes and remembered browsers go, and every session of the user ends. In the caller's
 * system-scope transaction; the caller checks who may, and clears its cached contexts after.
 */
export async function turnOffForUser(tx: WriteTx, userUuid: string): Promise<void> {
  await repo.deleteTotp(tx, userUuid);
  await revokeUserFamilies(tx, userUuid);
}
