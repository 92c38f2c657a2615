import { isIPv4, isIPv6 } from 'node:net';
import { FailureLimiter } from './failure-limiter.js';

/**
 * Limits on password guessing that protect an account without locking its owner out
 * (docs/decisions/014-sessions-and-login-limits.md, OWASP Authentication Cheat Sheet):
 * - one address may fail `perAccountAndAddress` times on one account, and `perAddress` times on
 *   all accounts, within `windowMs`; beyond that it is refused (429, Retry-After);
 * - an account failed `accountSlowdownAfter` times from everywhere is not blocked: each further
 *   password check on it waits a while first, doubling with each failure up to `maxDelayMs`,
 *   whatever the address — the owner's right password still gets in, only slower;
 * - an address that has not failed is never refused.
 * In memory, per process (decision 003): several instances would need a shared store.
 */
export type LoginLimitsOptions = {
  windowMs: number;
  perAccountAndAddress: number;
  perAddress: number;
  accountSlowdownAfter: number;
  baseDelayMs: number;
  maxDelayMs: number;
};

export const DEFAULT_LOGIN_LIMITS: LoginLimitsOptions = Object.freeze({
  windowMs: 15 * 60_000,
  perAccountAndAddress: 5,
  perAddress: 30,
  accountSlowdownAfter: 10,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
});

/**
 * The part of an address one client controls: an IPv4 address, or the /64 prefix of an IPv6 one
 * (a single host is usually given a whole /64, and could otherwise change address at each try).
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export class LoginLimits {
  private readonly pairs: FailureLimiter;
  private readonly addresses: FailureLimiter;
  private readonly accounts: FailureLimiter;

  constructor(
    private readonly options: LoginLimitsOptions = DEFAULT_LOGIN_LIMITS,
    now: () => number = () => Date.now(),
  ) {
    this.pairs = new FailureLimiter(options.perAccountAndAddress, options.windowMs, now);
    this.addresses = new FailureLimiter(options.perAddress, options.windowMs, now);
    // Only counted: an account as a whole is slowed down, never refused.
    this.accounts = new FailureLimiter(Number.MAX_SAFE_INTEGER, options.windowMs, now);
  }

  /** Seconds before this address may try this account again, or 0 when it may now. */
  retryAfter(account: string, ip: string): number {
    const address = addressKey(ip);
    return Math.max(this.pairs.retryAfter(`${account}\n${address}`), this.addresses.retryAfter(address));
  }

  /** How long to wait before checking a password for this account (0 until it has failed often). */
  delayMs(account: string): number {
    const beyond = this.accounts.count(account) - this.options.accountSlowdownAfter;
    if (beyond < 0) return 0;
    return Math.min(this.options.baseDelayMs * 2 ** Math.min(beyond, 30), this.options.maxDelayMs);
  }

  recordFailure(account: string, ip: string): void {
    const address = addressKey(ip);
    this.pairs.record(`${account}\n${address}`);
    this.addresses.record(address);
    this.accounts.record(account);
  }

  /**
   * The right password from this address: its failures on this account are forgiven. The
   * account's count stays: an attack from elsewhere goes on being slowed down.
   */
  recordSuccess(account: string, ip: string): void {
    this.pairs.reset(`${account}\n${addressKey(ip)}`);
  }
}

/** "Réessayez dans 40 secondes." / "Réessayez dans 12 minutes." */
export function tooManyAttemptsMessage(seconds: number): string {
  const wait = seconds < 120 ? `${seconds} seconde${seconds > 1 ? 's' : ''}` : `${Math.ceil(seconds / 60)} minutes`;
  return `Trop de tentatives de connexion depuis cette adresse. Réessayez dans ${wait}.`;
}
