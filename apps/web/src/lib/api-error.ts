// Its own module, free of the contract: the query client of the initial bundle needs it.

export type ApiErrorDetail = { path: string; message: string };

/** A failed API call, carrying the French message of the API's error envelope. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    message: string,
    readonly error = '',
    readonly details: ApiErrorDetail[] = [],
    /** The API's `Retry-After` in seconds (503 under overload, 429), null when it said nothing. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }

  /** Same name as the API envelope, so the route error element reads both alike. */
  get statusCode(): number {
    return this.status;
  }
}
