import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { baseUrl, expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';
import { waitForMail } from './support/mailbox.js';

// The survey is sent to BTP Durand's members; admin2@demo.fr answers it. Sending and answering
// change no account; the survey and its links are this file's own.
const RESPONDENT = 'admin2@demo.fr';
const TITLE = `Prévention hiver ${Date.now().toString(36)}`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('surveys, end to end', () => {
  it('the broker builds and sends a survey; a member answers it signed out at 390 px from the e-mailed link; the broker reads the results', async () => {
    const admin = await newPage(browser, { width: 1366, height: 900 });
    await login(admin.page, 'superadmin@demo.fr');
    await admin.page.goto('/superadmin/alerts');
    // « Gestion alertes »: the surveys are its second tab.
    await admin.page.getByRole('tab', { name: 'Questionnaires' }).click();
    await admin.page.waitForURL('**/superadmin/alerts?onglet=questionnaires');
    await admin.page.getByRole('heading', { level: 2, name: 'Questionnaires' }).waitFor();
    // The demo's survey, with its response rate.
    await admin.page.getByRole('link', { name: 'Votre avis sur notre accompagnement 2026' }).waitFor();
    await expectAccessible(admin.page);
    await screenshot(admin.page, 'surveys-list');

    await admin.page.getByRole('button', { name: 'Nouveau questionnaire' }).click();
    await admin.page.getByRole('heading', { level: 2, name: 'Nouveau questionnaire' }).waitFor();
    expect(admin.page.url()).toContain('questionnaire=nouveau');
    // Saving empty: French messages, nothing sent.
    await admin.page.getByRole('button', { name: 'Enregistrer le brouillon' }).click();
    await admin.page.getByText('Le titre est obligatoire').waitFor();
    await admin.page.getByLabel(/^Titre/).fill(TITLE);
    await admin.page.getByLabel(/^Introduction/).fill('Deux questions avant la saison froide.');
    await admin.page.getByLabel(/^Intitulé de la question/).first().fill('Vos véhicules ont-ils des pneus hiver ?');
    await admin.page.getByLabel('Question 1, choix 1').fill('Oui, tous');
    await admin.page.getByLabel('Question 1, choix 2').fill('Non');
    await admin.page.getByRole('switch', { name: 'Obligatoire' }).first().check();
    await admin.page.getByRole('button', { name: 'Ajouter une question' }).click();
    await admin.page.getByRole('combobox', { name: 'Type' }).nth(1).click();
    await admin.page.getByRole('option', { name: 'Texte libre' }).click();
    await admin.page.getByLabel(/^Intitulé de la question/).nth(1).fill('Un besoin de formation ?');
    // Moved first, then back: the order is the one saved.
    await admin.page.getByRole('button', { name: 'Monter la question 2' }).click();
    await expect.poll(() => admin.page.getByLabel(/^Intitulé de la question/).first().inputValue()).toBe('Un besoin de formation ?');
    await admin.page.getByRole('button', { name: 'Descendre la question 1' }).click();
    await expectAccessible(admin.page);
    await screenshot(admin.page, 'surveys-editor');
    await admin.page.getByRole('button', { name: 'Enregistrer le brouillon' }).click();
    await admin.page.getByRole('heading', { level: 2, name: TITLE }).waitFor();
    expect(admin.page.url()).toMatch(/questionnaire=[0-9a-f-]{36}/);

    await admin.page.getByRole('button', { name: 'Envoyer', exact: true }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Envoyer le questionnaire' });
    await dialog.getByLabel(/^BTP Durand/).check();
    await expectAccessible(admin.page);
    await screenshot(admin.page, 'surveys-send');
    // One link per member of BTP Durand as the API counts them now (a superadmin who opened the
    // organization in another e2e file became one of them).
    const broker = await apiAs('superadmin@demo.fr');
    const organizations = (await broker.call('GET', '/api/organization/environment?search=BTP%20Durand')) as { data: { uuid: string; title: string }[] };
    const durand = organizations.data.find((o) => o.title === 'BTP Durand')!;
    const members = ((await broker.call('GET', `/api/organization-user?organization=${durand.uuid}&limit=1000`)) as { total: number }).total;
    await dialog.getByRole('button', { name: 'Envoyer', exact: true }).click();
    await admin.page.getByText(new RegExp(`${members} liens envoyés`)).waitFor();
    await admin.page.getByText(`de réponses : 0 sur ${members} envois`).waitFor();

    // The respondent's e-mail, from the real SMTP server of the run.
    const mail = await waitForMail(RESPONDENT, { subject: new RegExp(TITLE) });
    expect(mail.subject).toBe(`Cabinet Démo Courtage vous pose quelques questions : ${TITLE}`);
    const link = new RegExp(`${baseUrl().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/survey/[\\w-]+`).exec(mail.text ?? '')?.[0];
    expect(link).toBeDefined();

    // Signed out, on a phone.
    const phone = await newPage(browser, { width: 390, height: 844 });
    await phone.page.goto(link!);
    await phone.page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    await phone.page.getByText('Pour BTP Durand').waitFor();
    await phone.page.getByRole('button', { name: 'Envoyer mes réponses' }).click();
    await phone.page.getByText('Cette question est obligatoire').waitFor();
    await expectAccessible(phone.page);
    await screenshot(phone.page, 'survey-answer-errors-390');
    await phone.page.getByRole('group', { name: /Vos véhicules ont-ils des pneus hiver/ }).getByLabel('Oui, tous').check();
    await phone.page.getByRole('textbox', { name: 'Un besoin de formation ?' }).fill('Conduite sur neige pour les nouveaux chauffeurs.');
    await screenshot(phone.page, 'survey-answer-390');
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await phone.page.getByRole('button', { name: 'Envoyer mes réponses' }).click();
    await phone.page.getByRole('heading', { level: 1, name: 'Merci pour vos réponses !' }).waitFor();
    await expectAccessible(phone.page);
    await screenshot(phone.page, 'survey-thanks-390');

    // The link served once; /survey without a token says what is missing.
    await phone.page.goto(link!);
    await phone.page.getByRole('heading', { level: 1, name: 'Déjà répondu' }).waitFor();
    await phone.page.goto('/survey');
    await phone.page.getByRole('heading', { level: 1, name: 'Lien incomplet' }).waitFor();
    await expectAccessible(phone.page);
    await phone.page.goto('/survey/un-lien-qui-n-existe-pas-du-tout');
    await phone.page.getByRole('heading', { level: 1, name: 'Lien non reconnu' }).waitFor();
    await screenshot(phone.page, 'survey-unknown-390');
    await phone.context.close();

    // The broker sees the answer.
    await admin.page.reload();
    await admin.page.getByText(`de réponses : 1 sur ${members} envois`).waitFor();
    await admin.page.getByText('Conduite sur neige pour les nouveaux chauffeurs.').waitFor();
    await admin.page.getByText('1 · 100 %').waitFor();
    await expectAccessible(admin.page);
    await screenshot(admin.page, 'surveys-results');
    const download = admin.page.waitForEvent('download');
    await admin.page.getByRole('button', { name: 'CSV' }).click();
    expect((await download).suggestedFilename()).toMatch(/^questionnaire-prevention-hiver.*\.csv$/);

    // The results on a phone.
    await admin.page.setViewportSize({ width: 390, height: 844 });
    await screenshot(admin.page, 'surveys-results-390');
    expect(admin.consoleErrors).toEqual([]);
    await admin.context.close();
  });
});
