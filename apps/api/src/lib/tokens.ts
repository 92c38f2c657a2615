import { createHash, createSecretKey, hkdfSync, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** A session's idle lifetime: each refresh token lives this long, and each refresh issues a new one (decision 003). */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;
/** A session's absolute lifetime from its login, however often it is refreshed (decision 014). */
export const SESSION_MAX_AGE_MS = 90 * 24 * 3600 * 1000;
const ISSUER = 'flotteassur';
const AUDIENCE = 'flotteassur-web';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whom an access token speaks for: a user, within one session (its refresh-token family). */
export type TokenSubject = Readonly<{ userUuid: string; sessionUuid: string }>;

/** The time in milliseconds, as Date.now gives it: tests inject their own clock (BuildAppOptions.now). */
export type Clock = () => number;

/**
 * Signs and checks access tokens with a key derived once from APP_SECRET (never the raw string).
 * Each token names its session (`sid`, the refresh-token family): the caller's context is only
 * loaded while that session is live, so that logging out, a password change or a revoked family
 * ends its access tokens at once, not at their expiry (decision 014).
 */
export class AccessTokens {
  private readonly key: KeyObject;

  constructor(
    appSecret: string,
    private readonly now: Clock = Date.now,
  ) {
    this.key = createSecretKey(Buffer.from(hkdfSync('sha256', appSecret, 'flotteassur', 'access-token', 32)));
  }

  /** A token valid ACCESS_TOKEN_TTL_SECONDS, never past `sessionEnd` (the session's absolute end). */
  sign({ userUuid, sessionUuid }: TokenSubject, sessionEnd?: Date): Promise<string> {
    const issuedAt = Math.floor(this.now() / 1000);
    const expires = issuedAt + ACCESS_TOKEN_TTL_SECONDS;
    return new SignJWT({ sid: sessionUuid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userUuid)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(sessionEnd ? Math.min(expires, Math.floor(sessionEnd.getTime() / 1000)) : expires)
      .sign(this.key);
  }

  /**
   * Tokens already verified, by their exact text: jose checks the HMAC through WebCrypto
   * (≈ 200 µs, the largest single cost of a list request); a token seen before only needs its
   * expiry checked again. Bounded; the oldest entries go first.
   */
  private readonly verified = new Map<string, { subject: TokenSubject; exp: number }>();
  private static readonly MAX_VERIFIED = 10_000;

  /**
   * The user and session, or null for a token that is malformed, tampered, expired or not ours,
   * or that names no session (issued before sessions were checked: the web app refreshes it).
   */
  async verify(token: string): Promise<TokenSubject | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp * 1000 > this.now()) return known.subject;
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        requiredClaims: ['sub', 'exp', 'iat', 'sid'],
        currentDate: new Date(this.now()),
      });
      if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number' || typeof payload.sid !== 'string') return null;
      if (!UUID.test(payload.sub) || !UUID.test(payload.sid)) return null;
      const subject = Object.freeze({ userUuid: payload.sub, sessionUuid: payload.sid });
      if (this.verified.size >= AccessTokens.MAX_VERIFIED) {
        const oldest = this.verified.keys().next().value;
        if (oldest !== undefined) this.verified.delete(oldest);
      }
      this.verified.set(token, { subject, exp: payload.exp });
      return subject;
    } catch {
      return null;
    }
  }
}

export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** The token's hash as stored, compared in constant time with the row found (defence in depth: the lookup is by hash; recovery and invitation links). */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
