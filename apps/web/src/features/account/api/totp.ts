import {
  TotpRecoveryCodesSchema,
  TotpSetupSchema,
  TotpStatusSchema,
  type TotpCodeBody,
  type TotpDisableBody,
  type TotpRecoveryCodes,
  type TotpSetup,
  type TotpStatus,
} from '@flotte/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

// The account page's two-factor sign-in (decision 035): GET/POST /api/auth/totp…

export const totpStatusQuery = queryOptions({
  queryKey: ['account', 'totp'] as const,
  queryFn: ({ signal }) => api<TotpStatus>('/api/auth/totp', { schema: import.meta.env.DEV ? TotpStatusSchema : undefined, signal }),
});

export const startTotpSetup = () => api<TotpSetup>('/api/auth/totp/setup', { method: 'POST', schema: import.meta.env.DEV ? TotpSetupSchema : undefined });

export const enableTotp = (body: TotpCodeBody) =>
  api<TotpRecoveryCodes>('/api/auth/totp/enable', { method: 'POST', body, schema: import.meta.env.DEV ? TotpRecoveryCodesSchema : undefined });

export const renewRecoveryCodes = (body: TotpCodeBody) =>
  api<TotpRecoveryCodes>('/api/auth/totp/recovery-codes', { method: 'POST', body, schema: import.meta.env.DEV ? TotpRecoveryCodesSchema : undefined });

export const disableTotp = (body: TotpDisableBody) => api<void>('/api/auth/totp/disable', { method: 'POST', body });
