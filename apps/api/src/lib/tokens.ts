import { createHash, createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;
const ISSUER = 'flotteassur';
const AUDIENCE = 'flotteassur-web';

/** Signs and checks access tokens with a key derived once from APP_SECRET (never the raw string). */
export class AccessTokens {
  private readonly key: KeyObject;

  constructor(appSecret: string) {
    this.key = createSecretKey(Buffer.from(hkdfSync('sha256', appSecret, 'flotteassur', 'access-token', 32)));
  }

  sign(userUuid: string): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userUuid)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
      .sign(this.key);
  }

  /**
   * Tokens already verified, by their exact text: jose checks the HMAC through WebCrypto
   * (≈ 200 µs, the largest single cost of a list request); a token seen before only needs its
   * expiry checked again. Bounded; the oldest entries go first.
   */
  private readonly verified = new Map<string, { sub: string; exp: number }>();
  private static readonly MAX_VERIFIED = 10_000;

  /** The user uuid, or null for a token that is malformed, tampered, expired or not ours. */
  async verify(token: string): Promise<string | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp * 1000 > Date.now()) return known.sub;
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
      if (this.verified.size >= AccessTokens.MAX_VERIFIED) {
        const oldest = this.verified.keys().next().value;
        if (oldest !== undefined) this.verified.delete(oldest);
      }
      this.verified.set(token, { sub: payload.sub, exp: payload.exp });
      return payload.sub;
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
