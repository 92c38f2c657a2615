import { describe, expect, it } from 'vitest';
import { escapeHtml, html, safeUrl } from './html.js';
import { DEFAULT_BRAND, type MailContext, renderMail, renderMailToText } from './render.js';
import { MAIL_TEMPLATES } from './templates.js';

const TOKEN = 'tok_0123456789abcdefghij';
const plain: MailContext = { baseUrl: 'https://flotte.exemple.fr', brand: DEFAULT_BRAND };
const broker: MailContext = { baseUrl: 'https://assur.exemple.fr/app/', brand: { name: 'Cabinet Durand & Fils', logoUrl: '/media/logo-durand.png' } };

describe('html tagged template', () => {
  it('escapes every interpolation, keeps nested html, drops null and false', () => {
    const name = `<script>alert("x")</script> & 'co'`;
    const out = html`<p title="${name}">${name}${html`<b>ok</b>`}${null}${false}${[html`<i>1</i>`, '<2>']}</p>`.value;
    expect(out).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;<b>ok</b><i>1</i>&lt;2&gt;</p>',
    );
    expect(escapeHtml('a&b')).toBe('a&amp;b');
  });

  it('refuses links that are not absolute http(s) or mailto', () => {
    expect(safeUrl('https://exemple.fr/a?b=1')).toBe('https://exemple.fr/a?b=1');
    expect(safeUrl('mailto:contact@exemple.fr')).toBe('mailto:contact@exemple.fr');
    expect(() => safeUrl('javascript:alert(1)')).toThrow(/not allowed/);
    expect(() => safeUrl('data:text/html,<b>x</b>')).toThrow(/not allowed/);
    expect(() => safeUrl('/relative')).toThrow(/absolute/);
  });
});

describe('password-reset', () => {
  it('reads in French with the product name and a link built from the base URL', () => {
    const text = renderMailToText(MAIL_TEMPLATES['password-reset'], { firstName: 'Camille', token: TOKEN, expiresInMinutes: 60 }, plain);
    expect(text).toContain('Objet : Réinitialisation de votre mot de passe FlotteAssur');
    expect(text).toContain('Bonjour Camille,');
    expect(text).toContain(`Choisir un nouveau mot de passe :\nhttps://flotte.exemple.fr/recover/password?token=${TOKEN}`);
    expect(text).toContain('Ce lien est valable 1 heure et ne sert qu\'une fois.');
    expect(text).toContain("Si vous n'êtes pas à l'origine de cette demande");
    expect(text).toContain('Ce message vous a été envoyé automatiquement par FlotteAssur.');
  });

  it('shows the environment name and its logo, links under a base path', () => {
    const mail = renderMail(MAIL_TEMPLATES['password-reset'], { firstName: 'Camille', token: TOKEN, expiresInMinutes: 30 }, broker);
    expect(mail.subject).toBe('Réinitialisation de votre mot de passe Cabinet Durand & Fils');
    expect(mail.html).toContain('<html lang="fr">');
    expect(mail.html).toContain('<img src="https://assur.exemple.fr/app/media/logo-durand.png" alt="Cabinet Durand &amp; Fils"');
    expect(mail.html).toContain(`href="https://assur.exemple.fr/app/recover/password?token=${TOKEN}"`);
    expect(mail.html).toContain('par Cabinet Durand &amp; Fils via FlotteAssur');
    expect(mail.text).toContain('valable 30 minutes');
    expect(renderMailToText(MAIL_TEMPLATES['password-reset'], { firstName: 'C', token: TOKEN, expiresInMinutes: 120 }, plain)).toContain('valable 2 heures');
    expect(renderMailToText(MAIL_TEMPLATES['password-reset'], { firstName: 'C', token: TOKEN, expiresInMinutes: 1 }, plain)).toContain('valable 1 minute ');
    expect(mail.text.startsWith('Cabinet Durand & Fils\n')).toBe(true);
  });

  it('escapes what the data carries in the HTML part and keeps it readable in the text part', () => {
    const mail = renderMail(MAIL_TEMPLATES['password-reset'], { firstName: '<img src=x onerror=alert(1)>', token: TOKEN, expiresInMinutes: 15 }, plain);
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).toContain('Bonjour &lt;img src=x onerror=alert(1)&gt;,');
    expect(mail.text).toContain('Bonjour <img src=x onerror=alert(1)>,');
  });

  it('refuses data that does not fit the template', () => {
    expect(() => renderMail(MAIL_TEMPLATES['password-reset'], { firstName: '', token: TOKEN, expiresInMinutes: 60 }, plain)).toThrow();
    expect(() => renderMail(MAIL_TEMPLATES['password-reset'], { firstName: 'Camille', token: 'court', expiresInMinutes: 60 }, plain)).toThrow();
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => renderMail(MAIL_TEMPLATES['password-reset'], { firstName: 'Camille', token: TOKEN, expiresInMinutes: 60 }, { ...plain, baseUrl: 'javascript:alert(1)' })).toThrow();
  });

  it('drops a logo that is not http(s) and shows the name instead', () => {
    const mail = renderMail(MAIL_TEMPLATES['password-reset'], { firstName: 'Camille', token: TOKEN, expiresInMinutes: 60 }, {
      ...plain,
      brand: { name: 'Cabinet Martin', logoUrl: 'javascript:alert(1)' },
    });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('javascript:');
    expect(mail.html).toContain('<span style="font-size:18px;font-weight:bold;">Cabinet Martin</span>');
  });
});

describe('signup-confirmation', () => {
  it('welcomes the new user and links to the confirmation page', () => {
    const text = renderMailToText(MAIL_TEMPLATES['signup-confirmation'], { firstName: 'Camille', token: TOKEN, expiresInHours: 48 }, broker);
    expect(text).toContain('Objet : Confirmez votre adresse e-mail pour Cabinet Durand & Fils');
    expect(text).toContain('Bienvenue sur Cabinet Durand & Fils !');
    expect(text).toContain(`Confirmer mon adresse :\nhttps://assur.exemple.fr/app/signup/confirmation?token=${TOKEN}`);
    expect(text).toContain('Ce lien est valable 48 heures.');
  });

  it('refuses a missing token', () => {
    expect(() => renderMail(MAIL_TEMPLATES['signup-confirmation'], { firstName: 'Camille', expiresInHours: 48 } as never, plain)).toThrow();
  });
});

describe('organization-invitation', () => {
  it('names who invites, to which organization, with a link to sign up', () => {
    const text = renderMailToText(
      MAIL_TEMPLATES['organization-invitation'],
      { inviterName: 'Jeanne Roux', organizationTitle: 'Transports Alpha', token: TOKEN, expiresInDays: 7 },
      plain,
    );
    expect(text).toContain('Objet : Jeanne Roux vous invite à rejoindre Transports Alpha sur FlotteAssur');
    expect(text).toContain('Rejoignez Transports Alpha');
    expect(text).toContain('Jeanne Roux vous invite à rejoindre Transports Alpha sur FlotteAssur, pour suivre ensemble');
    expect(text).toContain(`Accepter l'invitation :\nhttps://flotte.exemple.fr/signup?invitation=${TOKEN}`);
    expect(text).toContain('Cette invitation est valable 7 jours.');
  });

  it('writes one day in the singular', () => {
    const text = renderMailToText(MAIL_TEMPLATES['organization-invitation'], { inviterName: 'J', organizationTitle: 'A', token: TOKEN, expiresInDays: 1 }, plain);
    expect(text).toContain('valable 1 jour.');
  });
});

describe('vehicle-movement', () => {
  const vehicle = { immatriculation: 'AB-123-CD', brand: 'Renault', model: 'Master', category: 'Véhicule utilitaire', date: '2026-03-12' };
  const base = { organizationTitle: 'Transports Alpha', intermediaryContactName: 'Paul Lefèvre', senderName: 'Jeanne Roux' };
  const one = (movement: Record<string, unknown>, over: Record<string, unknown> = {}) => ({ ...base, ...over, movements: [{ ...vehicle, ...movement }] });

  it('tells the intermediary a vehicle leaves the fleet, with its details in French', () => {
    const text = renderMailToText(MAIL_TEMPLATES['vehicle-movement'], one({ movement: 'exit' }) as never, broker);
    expect(text).toContain('Objet : Sortie de flotte : AB-123-CD (Transports Alpha)');
    expect(text).toContain('Bonjour Paul Lefèvre,');
    expect(text).toContain('Jeanne Roux vous informe que le véhicule AB-123-CD sort de la flotte de Transports Alpha le 12 mars 2026.');
    expect(text).toContain('- Immatriculation : AB-123-CD\n- Véhicule : Renault Master\n- Catégorie : Véhicule utilitaire\n- Date de sortie : 12 mars 2026');
    expect(text).toContain('Merci de le retirer du contrat');
    expect(text).toContain('Ouvrir Cabinet Durand & Fils :\nhttps://assur.exemple.fr/app/vehicules');
  });

  it('tells an entry, without a contact name, a model or a category', () => {
    const text = renderMailToText(
      MAIL_TEMPLATES['vehicle-movement'],
      one({ movement: 'entry', brand: null, model: null, category: null }, { intermediaryContactName: null }) as never,
      plain,
    );
    expect(text).toContain('Objet : Entrée de flotte : AB-123-CD (Transports Alpha)');
    expect(text).toContain('\nBonjour,\n');
    expect(text).toContain("- Date d'entrée : 12 mars 2026");
    expect(text).not.toContain('Véhicule :');
    expect(text).not.toContain('Catégorie :');
    expect(text).toContain("Merci de l'ajouter au contrat");
  });

  it('lists many vehicles in one message, entries and exits counted', () => {
    const data = {
      ...base,
      movements: [
        { ...vehicle, movement: 'entry' },
        { ...vehicle, movement: 'entry', immatriculation: 'EF-456-GH', brand: 'Peugeot', model: 'Partner', date: '2026-03-13' },
        { ...vehicle, movement: 'exit', immatriculation: 'JK-789-LM', brand: null, model: null, category: null, date: '2026-03-14' },
      ],
    };
    const text = renderMailToText(MAIL_TEMPLATES['vehicle-movement'], data as never, plain);
    expect(text).toContain('Objet : Mouvements de flotte : 2 entrées et 1 sortie (Transports Alpha)');
    expect(text).toContain('Jeanne Roux vous informe des mouvements suivants dans la flotte de Transports Alpha (2 entrées et 1 sortie) :');
    expect(text).toContain('• AB-123-CD — Renault Master, Véhicule utilitaire : entrée le 12 mars 2026');
    expect(text).toContain('• EF-456-GH — Peugeot Partner, Véhicule utilitaire : entrée le 13 mars 2026');
    expect(text).toContain('• JK-789-LM : sortie le 14 mars 2026');
  });

  it('counts every movement of a large change and lists its first ones', () => {
    const movements = Array.from({ length: 3 }, (_, i) => ({ ...vehicle, movement: 'entry', immatriculation: `AA-${100 + i}-ZZ` }));
    // French thousands with a (narrow) no-break space, read here as a plain one.
    const text = renderMailToText(MAIL_TEMPLATES['vehicle-movement'], { ...base, movements, total: { entries: 1500, exits: 2 } } as never, plain).replace(/[\u00a0\u202f]/g, ' ');
    expect(text).toContain('Objet : Mouvements de flotte : 1 500 entrées et 2 sorties (Transports Alpha)');
    expect(text).toContain('• AA-102-ZZ — Renault Master, Véhicule utilitaire : entrée le 12 mars 2026');
    expect(text).toContain('… et 1 499 autres mouvements, à retrouver dans FlotteAssur.');
  });

  it('tells that movements told before are cancelled (an import undone), even a single one', () => {
    const text = renderMailToText(MAIL_TEMPLATES['vehicle-movement'], { ...one({ movement: 'entry' }), cancelled: true } as never, plain);
    expect(text).toContain('Objet : Annulation de mouvements de flotte : 1 entrée (Transports Alpha)');
    expect(text).toContain('Jeanne Roux vous informe que les mouvements suivants de la flotte de Transports Alpha, signalés précédemment, sont annulés (1 entrée) :');
    expect(text).toContain('• AB-123-CD — Renault Master, Véhicule utilitaire : entrée le 12 mars 2026 annulée');
    expect(text).toContain("Merci de ne pas en tenir compte dans le contrat d'assurance de la flotte.");
    expect(text).not.toContain('autre mouvement');
  });

  it('writes the first of a month as French does: « 1er »', () => {
    const text = renderMailToText(MAIL_TEMPLATES['vehicle-movement'], one({ movement: 'entry', date: '2026-06-01' }) as never, plain);
    expect(text).toContain("- Date d'entrée : 1er juin 2026");
    expect(renderMailToText(MAIL_TEMPLATES['vehicle-movement'], one({ movement: 'entry', date: '2026-06-11' }) as never, plain)).toContain('11 juin 2026');
  });

  it('keeps the subject on one line whatever the data holds', () => {
    const mail = renderMail(MAIL_TEMPLATES['vehicle-movement'], one({ movement: 'exit' }, { organizationTitle: 'Alpha\r\nBcc: espion@exemple.fr' }) as never, plain);
    expect(mail.subject).toBe('Sortie de flotte : AB-123-CD (Alpha Bcc: espion@exemple.fr)');
  });

  it('refuses a date that is not a calendar date, and an empty list', () => {
    expect(() => renderMail(MAIL_TEMPLATES['vehicle-movement'], one({ movement: 'exit', date: '12/03/2026' }) as never, plain)).toThrow();
    expect(() => renderMail(MAIL_TEMPLATES['vehicle-movement'], { ...base, movements: [] }, plain)).toThrow();
  });
});

describe('document-expiry', () => {
  const base = { organizationTitle: 'Transports Alpha', firstName: 'Camille', today: '2026-11-26', noticeDays: 30 };
  const doc = (name: string, expiresOn: string, folder = 'Mes documents') => ({ name, folder, expiresOn });

  it('lists each document with its folder and its French date, « expiré » when past, « aujourd’hui » on the day', () => {
    const text = renderMailToText(
      MAIL_TEMPLATES['document-expiry'],
      { ...base, documents: [doc('Carte verte.pdf', '2026-11-01', 'AB-123-CD'), doc('Permis.pdf', '2026-11-26'), doc('Contrat.pdf', '2026-12-03')] },
      plain,
    );
    expect(text).toContain('Objet : Documents à renouveler : 3 documents (Transports Alpha)');
    expect(text).toContain('Bonjour Camille,');
    expect(text).toContain('• Carte verte.pdf (dossier « AB-123-CD ») : expiré le 1er novembre 2026');
    expect(text).toContain('• Permis.pdf (dossier « Mes documents ») : expire aujourd’hui');
    expect(text).toContain('• Contrat.pdf (dossier « Mes documents ») : expire le 3 décembre 2026');
    expect(text).toContain('Ouvrir la gestion documentaire :\nhttps://flotte.exemple.fr/ged');
  });

  it('speaks of one document in the singular, and counts the documents beyond those listed', () => {
    const one = renderMailToText(MAIL_TEMPLATES['document-expiry'], { ...base, firstName: null, documents: [doc('Permis.pdf', '2026-12-20')] }, plain);
    expect(one).toContain('Objet : Documents à renouveler : 1 document (Transports Alpha)');
    expect(one).toContain('Bonjour,');
    expect(one).toContain('Un document de Transports Alpha a expiré ou expire dans les 30 prochains jours :');
    const many = renderMailToText(MAIL_TEMPLATES['document-expiry'], { ...base, documents: [doc('Permis.pdf', '2026-12-20')], total: 1201 }, plain).replace(/[\u00a0\u202f]/g, ' ');
    expect(many).toContain('Documents à renouveler : 1 201 documents');
    expect(many).toContain('… et 1 200 autres documents, à retrouver dans FlotteAssur.');
  });

  it('refuses an empty list', () => {
    expect(() => renderMail(MAIL_TEMPLATES['document-expiry'], { ...base, documents: [] }, plain)).toThrow();
  });
});

describe('survey-invitation', () => {
  const data = { surveyTitle: 'Satisfaction 2026', organizationTitle: 'Transports Lefèvre', introduction: 'Trois questions <rapides>.', token: TOKEN, expiresOn: '26/12/2026' };

  it('reads in French: the survey, the organization, the introduction, a personal link to /survey/{token} and its last day', () => {
    const text = renderMailToText(MAIL_TEMPLATES['survey-invitation'], data, plain);
    expect(text).toContain('Objet : FlotteAssur vous pose quelques questions : Satisfaction 2026');
    expect(text).toContain('en tant que membre de Transports Lefèvre');
    expect(text).toContain('Trois questions <rapides>.');
    expect(text).toContain(`Répondre au questionnaire :\nhttps://flotte.exemple.fr/survey/${TOKEN}`);
    expect(text).toContain('fonctionne jusqu’au 26/12/2026');
    expect(renderMail(MAIL_TEMPLATES['survey-invitation'], data, plain).html).toContain('Trois questions &lt;rapides&gt;.');
  });

  it('leaves the introduction out when there is none', () => {
    expect(renderMailToText(MAIL_TEMPLATES['survey-invitation'], { ...data, introduction: null }, plain)).not.toContain('rapides');
  });
});

describe('two-factor-reset', () => {
  it('reads in French: who turned it off for which organization, the sessions closed, the way back on /account', () => {
    const text = renderMailToText(MAIL_TEMPLATES['two-factor-reset'], { firstName: 'Léa', by: 'Claire Dupont', organization: 'Transports <Martin>' }, plain);
    expect(text).toContain('Objet : La double authentification de votre compte FlotteAssur a été désactivée');
    expect(text).toContain('Bonjour Léa,');
    expect(text).toContain('Claire Dupont a désactivé la double authentification de votre compte FlotteAssur, à la demande de l’organisation Transports <Martin>.');
    expect(text).toContain('Vos sessions ouvertes ont été fermées.');
    expect(text).toContain('Réactiver la double authentification :\nhttps://flotte.exemple.fr/account');
    expect(renderMail(MAIL_TEMPLATES['two-factor-reset'], { firstName: 'Léa', by: 'Claire Dupont', organization: 'Transports <Martin>' }, plain).html).toContain('Transports &lt;Martin&gt;');
  });
});

describe('space-invitation', () => {
  const data = { firstName: 'Inès', inviterName: 'Alex Moreau', environmentTitle: 'Cabinet <Levant>', token: TOKEN, expiresInDays: 7 };

  it('gives a new superadmin a link to choose its password, valid 7 days', () => {
    const text = renderMailToText(MAIL_TEMPLATES['space-invitation'], data, plain);
    expect(text).toContain('Objet : Vous êtes superadmin de l’espace Cabinet <Levant> sur FlotteAssur');
    expect(text).toContain('Bonjour Inès,');
    expect(text).toContain(`Choisir mon mot de passe :\nhttps://flotte.exemple.fr/recover/password?token=${TOKEN}`);
    expect(text).toContain('valable 7 jours');
    expect(renderMail(MAIL_TEMPLATES['space-invitation'], data, plain).html).toContain('Cabinet &lt;Levant&gt;');
  });

  it('tells an existing account to sign in, with no link to a password', () => {
    const text = renderMailToText(MAIL_TEMPLATES['space-invitation'], { ...data, token: null }, plain);
    expect(text).toContain('Se connecter :\nhttps://flotte.exemple.fr/');
    expect(text).not.toContain('token=');
  });
});
