// Images kept by the API as public WebP files (decision 042): the avatar's square and the logos'
// box. The client crops, the API resizes; these numbers are shared by both.

/** A logo (organization, environment) fits inside this box, its ratio kept, transparency kept (WebP with alpha). */
export const LOGO_WIDTH = 512;
export const LOGO_HEIGHT = 256;
/** Largest image the API accepts for a logo (before it is resized). */
export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
/** What the logo upload accepts (the client sends its crop as PNG or WebP). */
export const LOGO_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
