import { describe, expect, it } from 'vitest';
import { registerTexts } from './register-texts';

describe('registerTexts', () => {
  it('says everything about a masculine register from its noun', () => {
    const texts = registerTexts({ one: 'véhicule' });
    expect(texts).toMatchObject({
      title: 'Véhicules',
      list: 'Liste des véhicules',
      status: 'Statut des véhicules',
      search: 'Rechercher un véhicule',
      add: 'Ajouter un véhicule',
      edit: 'Modifier le véhicule',
      create: 'Ajouter le véhicule',
      created: 'Véhicule ajouté',
      saveFailed: "Erreur lors de l'enregistrement du véhicule",
      deleted: 'Véhicule supprimé définitivement',
      emptyFirst: 'Aucun véhicule pour le moment. Ajoutez votre premier véhicule.',
      emptyActive: 'Aucun véhicule actif. Ajoutez un véhicule ou retrouvez les anciens dans « Archivés ».',
      noneArchived: 'Aucun véhicule archivé.',
      seeActive: 'Voir les véhicules actifs',
    });
    // French: 0 and 1 take the singular.
    expect(texts.counts({ active: 0, archived: 1 })).toBe('0 véhicule actif · 1 archivé');
    expect(texts.counts({ active: 1200, archived: 3 })).toBe('1\u202f200 véhicules actifs · 3 archivés');
    expect(texts.gone('AB-123-CD')).toBe('AB-123-CD ne figure plus parmi les véhicules actifs.');
    expect(texts.back('AB-123-CD')).toBe('AB-123-CD figure de nouveau parmi les véhicules actifs.');
  });

  it('agrees a feminine noun, and elides before a vowel', () => {
    const texts = registerTexts({ one: 'alerte', feminine: true });
    expect(texts).toMatchObject({
      add: 'Ajouter une alerte',
      edit: 'Modifier l’alerte',
      created: 'Alerte ajoutée',
      archived: 'Alerte archivée',
      saveFailed: "Erreur lors de l'enregistrement de l’alerte",
      emptyFirst: 'Aucune alerte pour le moment. Ajoutez votre première alerte.',
      emptyActive: 'Aucune alerte active. Ajoutez une alerte ou retrouvez les anciennes dans « Archivés ».',
      seeActive: 'Voir les alertes actives',
    });
    expect(texts.counts({ active: 2, archived: 2 })).toBe('2 alertes actives · 2 archivées');
    expect(registerTexts({ one: 'organisation', feminine: true }).edit).toBe('Modifier l’organisation');
    expect(registerTexts({ one: 'contrat' }).edit).toBe('Modifier le contrat');
  });
});
