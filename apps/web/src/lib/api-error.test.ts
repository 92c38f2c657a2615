import { describe, expect, it } from 'vitest';
import { ApiError, withReference } from './api-error';

describe('the reference of a server error', () => {
  it('follows the French message of a 5xx that came with an id', () => {
    expect(withReference('Une erreur interne est survenue. Veuillez réessayer.', 500, 'hT3x_9Qa-Lm2Zp0w')).toBe(
      'Une erreur interne est survenue. Veuillez réessayer. Référence : hT3x_9Qa-Lm2Zp0w',
    );
    // A message without its full stop gets one before the reference.
    expect(withReference('Service indisponible', 503, 'Zx81-kd_Q0aPw7Lr')).toBe('Service indisponible. Référence : Zx81-kd_Q0aPw7Lr');
  });

  it('is left out of a refusal (4xx), a network failure, or a 5xx without an id', () => {
    expect(withReference('Conducteur introuvable', 404, 'hT3x_9Qa-Lm2Zp0w')).toBe('Conducteur introuvable');
    expect(withReference('Impossible de joindre le serveur.', 0, 'hT3x_9Qa-Lm2Zp0w')).toBe('Impossible de joindre le serveur.');
    expect(withReference('Une erreur interne est survenue.', 500, null)).toBe('Une erreur interne est survenue.');
  });

  it('is part of an ApiError\'s message, which every error display shows; the API\'s own text stays apart', () => {
    const error = new ApiError(500, 'Une erreur interne est survenue. Veuillez réessayer.', 'Internal Server Error', [], null, 'hT3x_9Qa-Lm2Zp0w');
    expect(error.message).toBe('Une erreur interne est survenue. Veuillez réessayer. Référence : hT3x_9Qa-Lm2Zp0w');
    expect(error.serverMessage).toBe('Une erreur interne est survenue. Veuillez réessayer.');
    expect(error.requestId).toBe('hT3x_9Qa-Lm2Zp0w');
    expect(new ApiError(409, 'Ce conducteur existe déjà', 'Conflict', [], null, 'hT3x_9Qa-Lm2Zp0w').message).toBe('Ce conducteur existe déjà');
  });
});
