import { EnvironmentSchema, OrganizationSchema, type Environment, type Organization } from '@flotte/contract';
import { api } from './api-client';
import { apiUpload } from './api-upload';

// Logos (decision 042): the crop is sent as a file; the API keeps a WebP inside 512 × 256 px.

const dev = import.meta.env.DEV;
const TOO_LARGE = 'Le logo est trop lourd : choisissez une image plus légère.';
const noProgress = () => undefined;

/** POST /api/organization/{uuid}/logo: its ADMINs, the superadmins of its environment, ROOT. */
export function uploadOrganizationLogo(organizationUuid: string, image: File): Promise<Organization> {
  return apiUpload<Organization>(`/api/organization/${organizationUuid}/logo`, [image], { field: 'file', onProgress: noProgress, tooLarge: TOO_LARGE });
}

export function removeOrganizationLogo(organizationUuid: string): Promise<Organization> {
  return api<Organization>(`/api/organization/${organizationUuid}/logo`, { method: 'DELETE', schema: dev ? OrganizationSchema : undefined });
}

/** POST /api/environment/{uuid}/logo: its superadmins and ROOT (for /superadmin/settings). */
export function uploadEnvironmentLogo(environmentUuid: string, image: File): Promise<Environment> {
  return apiUpload<Environment>(`/api/environment/${environmentUuid}/logo`, [image], { field: 'file', onProgress: noProgress, tooLarge: TOO_LARGE });
}

export function removeEnvironmentLogo(environmentUuid: string): Promise<Environment> {
  return api<Environment>(`/api/environment/${environmentUuid}/logo`, { method: 'DELETE', schema: dev ? EnvironmentSchema : undefined });
}
