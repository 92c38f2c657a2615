// Its own module, free of the contract: the query client of the initial bundle needs it.

export type ApiErrorDetail = { path: string; message: string };

/**
 * A server error's message with its « Référence » (the request's id, decision 046): the one thing
 * a user can quote to support, who finds the request's log lines by it. Said only for a 5xx that
 * came with an id; a refusal (4xx) says itself what to change.
 */
export function withReference(message: string, status: number, requestId: string | null): string {
  if (status < 500 || !requestId) return message;
  const sentence = /[.!?…]$/.test(message.trimEnd()) ? message.trimEnd() : `${message.trimEnd()}.`;
  return `${sentence} Référence : ${requestId}`;
}

/** A failed API call, carrying the French message of the API's error envelope. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    /** The API's French message; `message` adds the reference of a server error to it. */
    readonly serverMessage: string,
    readonly error = '',
    readonly details: ApiErrorDetail[] = [],
    /** The API's `Retry-After` in seconds (503 under overload, 429), null when it said nothing. */
    readonly retryAfterSeconds: number | null = null,
    /** The request's id (body `requestId` or `X-Request-Id` header) of a server error, null otherwise. */
    readonly requestId: string | null = null,
  ) {
    // Every place that shows an error's message (snackbar, inline alert, error page) shows the reference.
    super(withReference(serverMessage, status, requestId));
  }

  /** Same name as the API envelope, so the route error element reads both alike. */
  get statusCode(): number {
    return this.status;
  }
}
