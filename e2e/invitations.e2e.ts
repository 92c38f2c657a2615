import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { baseUrl, expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';
import { mailMark, waitForMail } from './support/mailbox.js';

// Invitations (decision 034). The accounts invited here are this file's own (addresses made up
// for the run); afterEach takes them out of the demo organizations again, through the API, so the
// members list of BTP Durand is as seeded for the other files.
const PASSWORD = 'Le dépôt de Vénissieux ouvre tôt 2026';
const run = Date.now().toString(36);

type Link = { uuid: string; user: { email: string } };
const joined: { admin: string; email: string }[] = [];

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(async () => {
  for (const { admin, email } of joined.splice(0)) {
    const api = await apiAs(admin);
    const members = (await api.call('GET', `/api/organization-user?organization=${durandUuid(api)}&limit=1000`)) as { data: Link[] };
    const link = members.data.find((candidate) => candidate.user.email === email);
    if (link) await api.call('DELETE', `/api/organization-user/${link.uuid}`);
  }
});
afterAll(async () => {
  await browser?.close();
});

/** BTP Durand, admin2@demo.fr's only (and so current) organization. */
const durandUuid = (api: Awaited<ReturnType<typeof apiAs>>) =>
  (api.user.currentOrganizationUser as unknown as { organization: { uuid: string } }).organization.uuid;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The link of the last invitation received by `email`. */
async function invitationLink(email: string, since: number): Promise<string> {
  const mail = await waitForMail(email, { since, subject: /vous invite à rejoindre/ });
  const link = new RegExp(`${escaped(baseUrl())}/signup\\?invitation=[\\w-]+`).exec(mail.text ?? '')?.[0];
  expect(link).toBeDefined();
  return link!;
}

describe('invitations, end to end', () => {
  it('an administrator invites from /parameters; a new user creates the account from the e-mail and lands in the organization', async () => {
    const email = `recrue-${run}@exemple.fr`;
    joined.push({ admin: 'admin2@demo.fr', email });
    const admin = await newPage(browser, { width: 1366, height: 900 });
    await login(admin.page, 'admin2@demo.fr');
    await admin.page.goto('/parameters');
    const section = admin.page.locator('#membres');
    await section.getByRole('table', { name: 'Membres de l’organisation' }).waitFor();
    await section.getByRole('button', { name: 'Inviter un membre' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Inviter un membre' });
    await dialog.getByLabel(/Adresse e-mail/).fill(email);
    await expectAccessible(admin.page);
    await screenshot(admin.page, 'members-invite-dialog');
    const mark = await mailMark();
    await dialog.getByRole('button', { name: 'Envoyer l’invitation' }).click();
    await admin.page.getByText('Invitation envoyée').first().waitFor();
    await section.getByRole('table', { name: 'Invitations en attente' }).getByText(email).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await section.scrollIntoViewIfNeeded();
    await expectAccessible(admin.page);
    await screenshot(admin.page, 'members-section');

    const link = await invitationLink(email, mark);
    const invited = await newPage(browser, { width: 1366, height: 900 });
    await invited.page.goto(link);
    await invited.page.getByRole('heading', { level: 1, name: 'Marc Durand vous invite à rejoindre BTP Durand' }).waitFor();
    await invited.page.getByLabel(/Prénom/).fill('Inès');
    await invited.page.getByLabel(/^Nom/).fill('Garnier');
    await invited.page.getByLabel(/^Mot de passe/).fill(PASSWORD);
    await invited.page.getByRole('checkbox', { name: /J’accepte les conditions générales d’utilisation/ }).check();
    await expectAccessible(invited.page);
    await screenshot(invited.page, 'invitation-new-account');
    await invited.page.getByRole('button', { name: 'Créer mon compte et rejoindre BTP Durand' }).click();
    await invited.page.waitForURL('**/dashboard');
    await invited.page.getByText('BTP Durand').first().waitFor();
    expect(invited.consoleErrors.filter((text) => !/401/.test(text))).toEqual([]);

    // The link served once; the new member is listed with its role, the invitation gone.
    const again = await newPage(browser, { width: 390, height: 844 });
    await again.page.goto(link);
    await again.page.getByText(/Cette invitation est invalide ou a expiré/).waitFor();
    await expectAccessible(again.page);
    await screenshot(again.page, 'invitation-dead-390');
    await admin.page.reload();
    await section.getByRole('row', { name: new RegExp(`Inès Garnier.*${escaped(email)}`) }).waitFor();
    expect(await section.getByRole('table', { name: 'Invitations en attente' }).getByText(email).count()).toBe(0);
    for (const { context } of [admin, invited, again]) await context.close();
  });

  it('an existing user signs in from the invitation and joins the organization', async () => {
    const email = `deja-inscrite-${run}@exemple.fr`;
    // The test's own account: created through an invitation of BTP Durand, accepted by the API.
    const durand = await apiAs('admin2@demo.fr');
    joined.push({ admin: 'admin2@demo.fr', email });
    let mark = await mailMark();
    await durand.call('POST', '/api/organization-invitation', { email, role: 'USER' });
    const first = new URL(await invitationLink(email, mark)).searchParams.get('invitation')!;
    const created = await fetch(`${baseUrl()}/api/invitation/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: first, firstName: 'Hélène', lastName: 'Bertin', password: PASSWORD, cguAccepted: true }),
    });
    expect(created.status).toBe(201);

    // Removed from BTP Durand: an account of its own, member of nothing. Invited back, as an administrator.
    const members = (await durand.call('GET', `/api/organization-user?organization=${durandUuid(durand)}&limit=1000`)) as { data: Link[] };
    await durand.call('DELETE', `/api/organization-user/${members.data.find((l) => l.user.email === email)!.uuid}`);
    mark = await mailMark();
    await durand.call('POST', '/api/organization-invitation', { email, role: 'ADMIN' });
    const link = await invitationLink(email, mark);

    const { page, context, consoleErrors } = await newPage(browser, { width: 390, height: 844 });
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Marc Durand vous invite à rejoindre BTP Durand' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'invitation-existing-390');
    await page.getByRole('link', { name: 'Se connecter pour accepter' }).click();
    await page.getByLabel('Adresse e-mail').fill(email);
    await page.getByLabel(/^Mot de passe/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    const join = page.getByRole('button', { name: 'Rejoindre BTP Durand' });
    await join.waitFor();
    await expectAccessible(page);
    await screenshot(page, 'invitation-join-390');
    await join.click();
    await page.waitForURL('**/dashboard');
    await page.getByText('BTP Durand').first().waitFor();
    // An administrator of BTP Durand now: the « Membres » section lets it invite.
    await page.goto('/parameters');
    await page.locator('#membres').getByRole('button', { name: 'Inviter un membre' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'members-section-390');
    expect(consoleErrors.filter((text) => !/401/.test(text))).toEqual([]);
    await context.close();
  });
});
