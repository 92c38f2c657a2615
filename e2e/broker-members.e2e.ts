import { generateSync } from 'otplib';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { baseUrl, expectAccessible, launchBrowser, login, newPage, screenshot, SCREENSHOTS } from './support/browser.js';
import { mailMark, waitForMail } from './support/mailbox.js';

// The broker manages a client's members from « Gestion organisations » (its « Membres » dialog
// leads to the organization's section) and turns off the second factor of a member who lost it
// (decision 035). The members are this file's own accounts, invited by the superadmin into its
// current organization (Transports Martin in the seed; another e2e file may have opened another
// of its clients since) and removed again after each test.
const PASSWORD = 'La tournée du jeudi part à six heures';
const CSRF = { 'x-requested-with': 'flotteassur' };
const run = Date.now().toString(36);
let accounts = 0;
const created: string[] = [];

type Link = { uuid: string; user: { email: string } };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
/** The superadmin's API and its current organization, where it administers members. */
async function broker() {
  const api = await apiAs('superadmin@demo.fr');
  return { api, current: (api.user.currentOrganizationUser as unknown as { organization: { uuid: string; title: string } }).organization };
}
afterEach(async () => {
  const { api, current } = await broker();
  const members = (await api.call('GET', `/api/organization-user?organization=${current.uuid}&limit=1000`)) as { data: Link[] };
  for (const link of members.data.filter((candidate) => created.includes(candidate.user.email))) await api.call('DELETE', `/api/organization-user/${link.uuid}`);
});
afterAll(async () => {
  await browser?.close();
});

async function post(path: string, body: unknown, token?: string) {
  const response = await fetch(`${baseUrl()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...CSRF, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()) as Record<string, unknown>;
}

/** A new member of the superadmin's current organization, created through an invitation, who signs in with a code. */
async function memberWithTwoFactor(): Promise<{ email: string; organization: string }> {
  const email = `deux-facteurs-${run}-${++accounts}@exemple.fr`;
  created.push(email);
  const { api } = await broker();
  const mark = await mailMark();
  await api.call('POST', '/api/organization-invitation', { email, role: 'USER' });
  const invitation = await waitForMail(email, { since: mark, subject: /vous invite à rejoindre/ });
  const token = new URL(/https?:\/\/\S+\/signup\?invitation=[\w-]+/.exec(invitation.text ?? '')![0]).searchParams.get('invitation');
  const accepted = await post('/api/invitation/accept', { token, firstName: 'Damien', lastName: 'Facteur', password: PASSWORD, cguAccepted: true });
  const access = (accepted.tokens as { access_token: string }).access_token;
  const setup = await post('/api/auth/totp/setup', {}, access);
  const secret = String(setup.secret).replace(/\s/g, '');
  await post('/api/auth/totp/enable', { code: generateSync({ secret }) }, access);
  const signIn = await post('/api/auth/login', { email, password: PASSWORD });
  expect(signIn.mode).toBe('code');
  return { email, organization: (await broker()).current.title };
}

describe('the broker and a client’s members', () => {
  it('opens the members from « Gestion organisations », then turns off the second factor of a member who lost it', async () => {
    const { email, organization } = await memberWithTwoFactor();
    const { page, context, consoleErrors } = await newPage(browser);
    await login(page, 'superadmin@demo.fr');
    await page.goto('/superadmin/organization');
    await page.getByRole('searchbox', { name: 'Rechercher une organisation' }).fill(organization);
    await page.getByRole('searchbox', { name: 'Rechercher une organisation' }).press('Enter');
    await page.getByRole('button', { name: `Actions pour ${organization}` }).click();
    await page.getByRole('menuitem', { name: 'Membres' }).click();
    const dialog = page.getByRole('dialog', { name: `Membres de ${organization}` });
    await dialog.getByText('Damien Facteur').waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Gérer les membres' }).click();
    await page.waitForURL('**/parameters#membres');
    const section = page.getByRole('region', { name: 'Membres', exact: true });
    const reset = section.getByRole('button', { name: 'Désactiver la double authentification de Damien Facteur' });
    await reset.waitFor();
    // Brought into view: the section is below « Organisation » on the page.
    await expect.poll(() => section.evaluate((element) => Math.round(element.getBoundingClientRect().top))).toBeLessThan(200);
    // Only for members who sign in with a code.
    expect(await section.getByRole('button', { name: /^Désactiver la double authentification de/ }).count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'broker-members-two-factor');

    await reset.click();
    const confirm = page.getByRole('alertdialog', { name: 'Désactiver la double authentification de Damien Facteur ?' });
    await expectAccessible(page);
    await screenshot(page, 'broker-members-two-factor-confirm');
    const mark = await mailMark();
    await confirm.getByRole('button', { name: 'Désactiver' }).click();
    await page.getByText('Double authentification désactivée').first().waitFor();
    await expect.poll(() => section.getByRole('button', { name: /^Désactiver la double authentification de/ }).count()).toBe(0);

    const notice = await waitForMail(email, { since: mark, subject: /double authentification .* a été désactivée/ });
    expect(notice.text).toContain('Sophie Lefèvre a désactivé la double authentification de votre compte');
    expect(notice.text).toContain(`à la demande de l’organisation ${organization}`);
    // The password alone opens the account now.
    expect((await post('/api/auth/login', { email, password: PASSWORD })).tokens).toBeDefined();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('reads well on a phone', async () => {
    await memberWithTwoFactor();
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    await login(page, 'superadmin@demo.fr');
    await page.goto('/parameters#membres');
    const section = page.getByRole('region', { name: 'Membres', exact: true });
    await section.getByRole('button', { name: 'Désactiver la double authentification de Damien Facteur' }).waitFor();
    await expectAccessible(page);
    await section.screenshot({ path: `${SCREENSHOTS}/broker-members-two-factor-390.png` });
    await context.close();
  });
});
