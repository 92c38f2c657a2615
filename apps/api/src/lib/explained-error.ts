/**
 * A failure whose message already tells the person at the terminal, in French, what happened and
 * what to do next: entry points print it as it is, without a stack trace, and exit with code 1.
 */
export class ExplainedError extends Error {
  override readonly name = 'ExplainedError';
}
