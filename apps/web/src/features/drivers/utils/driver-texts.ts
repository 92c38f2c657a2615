import type { Driver } from '@flotte/contract';
import { registerTexts } from '../../../components/register/register-texts';

export const DRIVER_TEXTS = registerTexts({ one: 'conducteur' });

/** 'Élodie Écuyer': a driver's name in the list, the dialogs and the snackbars. */
export function driverName(driver: Pick<Driver, 'firstName' | 'lastName'>): string {
  return `${driver.firstName} ${driver.lastName}`;
}
