import path from 'node:path';
import { isNoSpace } from '../errors.js';
import { ExplainedError } from '../lib/explained-error.js';

/** Maintenance commands (npm run backup / restore / import-backup): talk to the person running them. */

export function say(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** A path given on the command line, relative to where npm was run (npm runs scripts from the root). */
export function pathArgument(value: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), value);
}

/**
 * Runs a command: exit 0 once done, 1 with the explanation on failure. A signal stops it at once;
 * the folder lock it may hold is released by the process's exit.
 */
export function runCommand(main: () => Promise<void>): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      console.error(`\nInterrompu (${signal}).`);
      process.exit(1);
    });
  }
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      if (error instanceof ExplainedError) console.error(error.message);
      else if (isNoSpace(error)) {
        const where = (error as { path?: string }).path;
        console.error(`Plus de place sur le disque${where ? ` (${where})` : ''} : la commande s'est arrêtée. Libérez de la place (ou choisissez un autre dossier), puis relancez-la.`);
      }
      else console.error('Erreur inattendue :', error);
      process.exit(1);
    },
  );
}
