/**
 * The server's entry (`npm start`). Traces, when asked for, start before anything else is loaded:
 * their instrumentations patch http and pg as those load (platform/tracing, decision 047).
 * Everything else is imported afterwards, dynamically, for that reason.
 */
import { ExplainedError } from './lib/explained-error.js';
import { tracingRequested } from './platform/tracing/requested.js';

try {
  const request = tracingRequested(process.env);
  const tracing = request ? await (await import('./platform/tracing/tracing.js')).startTracing({ request }) : null;
  const { serve } = await import('./serve.js');
  await serve(tracing);
} catch (error) {
  // An explained failure (folder in use, database that does not open…) says itself what to do.
  if (error instanceof ExplainedError) console.error(`\nDémarrage impossible.\n${error.message}\n`);
  else console.error('Démarrage impossible :', error);
  process.exit(1);
}
