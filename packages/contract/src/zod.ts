// The zod every schema module builds with, configured once. Every schema module imports `z` from
// here rather than from 'zod': with "sideEffects": false, a bare import of a config module would be
// dropped by the web's bundler, while this one comes with any schema that is used.
import { z } from 'zod';

// Every validation message a user can read is French, on the API and in the web forms alike.
z.config(z.locales.fr());

export { z };
