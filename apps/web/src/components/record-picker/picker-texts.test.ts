import { describe, expect, it } from 'vitest';
import { pickerTexts } from './picker-texts';

describe('pickerTexts', () => {
  it('speaks of a masculine register', () => {
    const texts = pickerTexts({ one: 'véhicule' });
    expect(texts.none).toBe('Aucun véhicule trouvé');
    expect(texts.empty).toBe('Aucun véhicule pour le moment');
    expect(texts.typeToSearch(3000, false)).toBe('Tapez pour rechercher parmi les 3\u202f000 véhicules…');
    expect(texts.typeToSearch(1000, true)).toBe('Tapez pour rechercher parmi plus de 1\u202f000 véhicules…');
    expect(texts.more(200, 1000, true)).toBe('Seuls les 200 premiers des plus de 1\u202f000 véhicules trouvés sont proposés : précisez la recherche.');
  });

  it('agrees with a feminine one', () => {
    const texts = pickerTexts({ one: 'alerte', feminine: true });
    expect(texts.none).toBe('Aucune alerte trouvée');
    expect(texts.more(200, 450, false)).toBe('Seules les 200 premières des 450 alertes trouvées sont proposées : précisez la recherche.');
  });
});
