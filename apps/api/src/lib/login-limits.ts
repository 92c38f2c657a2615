import { isIPv4, isIPv6 } from 'node:net';
import { type FailureStore, MemoryFailureStore, retryAfterSeconds } from './failure-limiter.js';

/**
 * Limits on password guessing that protect an account without locking its owner out
 * (docs/decisions/014-sessions-and-login-limits.md, OWASP Authentication Cheat Sheet):
 * - one address may fail `perAccountAndAddress` times on one account, and `perAddress` times on
 *   all accounts, within `windowMs`; beyond that it is refused (429, Retry-After);
 * - an account failed `accountSlowdownAfter` times from everywhere is not blocked: each further
 *   password check on it waits a while first, doubling with each failure up to `maxDelayMs`,
 *   whatever the address — the owner's right password still gets in, only slower;
 * - an address that has not failed is never refused.
 * The counts live in a FailureStore (lib/failure-limiter.ts): in memory for the embedded
 * database, shared by every process in PostgreSQL or Redis otherwise (decision 020).
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

/**
 * What a login attempt may do now: wait `retryAfter` seconds (refused), or be slowed by `delayMs`;
 * `pairFailures`: this address's recent failures on this account (a success forgives them).
 */
export type LoginAdmission = { retryAfter: number; delayMs: number; pairFailures: number };

export class LoginLimits {
  /** Failures kept per key: the largest limit, and the account's count until its delay stops growing. */
  private readonly keep: number;

  constructor(
    private readonly store: FailureStore = new MemoryFailureStore(),
    private readonly options: LoginLimitsOptions = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = () => Date.now(),
  ) {
    const doublings = Math.ceil(Math.log2(Math.max(1, options.maxDelayMs / Math.max(1, options.baseDelayMs))));
    this.keep = Math.max(options.perAccountAndAddress, options.perAddress, options.accountSlowdownAfter + doublings + 1);
  }

  /**
   * Seconds before this address may try this account again (0: now), and how long to wait
   * before checking a password for this account (0 until it has failed often). One read of the
   * store for the three counts.
   */
  async admission(account: string, ip: string): Promise<LoginAdmission> {
    const address = addressKey(ip);
    const now = this.now();
    const { windowMs } = this.options;
    const [pair = [], perAddress = [], perAccount = []] = await this.store.recent(
      [pairKey(account, address), addressOnlyKey(address), accountKey(account)],
      now - windowMs,
    );
    const retryAfter = Math.max(
      retryAfterSeconds(pair, this.options.perAccountAndAddress, windowMs, now),
      retryAfterSeconds(perAddress, this.options.perAddress, windowMs, now),
    );
    const beyond = perAccount.length - this.options.accountSlowdownAfter;
    const delayMs = beyond < 0 ? 0 : Math.min(this.options.baseDelayMs * 2 ** Math.min(beyond, 30), this.options.maxDelayMs);
    return { retryAfter, delayMs, pairFailures: pair.length };
  }

  /** Seconds before this address may try this account again, or 0 when it may now. */
  async retryAfter(account: string, ip: string): Promise<number> {
    return (await this.admission(account, ip)).retryAfter;
  }

  /** How long to wait before checking a password for this account (0 until it has failed often). */
  async delayMs(account: string): Promise<number> {
    // The address plays no part in the account's delay.
    return (await this.admission(account, '')).delayMs;
  }

  async recordFailure(account: string, ip: string): Promise<void> {
    const address = addressKey(ip);
    // Keys in one order for every caller: a shared store locks them in that order.
    const keys = [pairKey(account, address), addressOnlyKey(address), accountKey(account)].sort();
    await this.store.record(keys, this.now(), this.options.windowMs, this.keep);
  }

  /**
   * Seconds before this address may present a credential again (0: now), counting only its
   * failures on every account and elsewhere (the metrics' token, decision 045): an address
   * guessing a token spends the budget it would have for guessing passwords.
   */
  async addressRetryAfter(ip: string): Promise<number> {
    const now = this.now();
    const [perAddress = []] = await this.store.recent([addressOnlyKey(addressKey(ip))], now - this.options.windowMs);
    return retryAfterSeconds(perAddress, this.options.perAddress, this.options.windowMs, now);
  }

  /** A wrong credential that is not an account's password (the metrics' token): counted against the address only. */
  async recordAddressFailure(ip: string): Promise<void> {
    await this.store.record([addressOnlyKey(addressKey(ip))], this.now(), this.options.windowMs, this.keep);
  }

  /**
   * The right password from this address: its failures on this account are forgiven. The
   * account's count stays: an attack from elsewhere goes on being slowed down.
   */
  async recordSuccess(account: string, ip: string): Promise<void> {
    await this.store.reset(pairKey(account, addressKey(ip)));
  }
}

/** Keys of the three counts, distinct by their prefix (an address never contains "\n"). */
const pairKey = (account: string, address: string) => `login:pair:${account}\n${address}`;
const addressOnlyKey = (address: string) => `login:address:${address}`;
const accountKey = (account: string) => `login:account:${account}`;

/** "Réessayez dans 40 secondes." / "Réessayez dans 12 minutes." */
export function tooManyAttemptsMessage(seconds: number): string {
  const wait = seconds < 120 ? `${seconds} seconde${seconds > 1 ? 's' : ''}` : `${Math.ceil(seconds / 60)} minutes`;
  return `Trop de tentatives de connexion depuis cette adresse. Réessayez dans ${wait}.`;
}
