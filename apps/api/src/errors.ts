/** Domain errors: services throw them, the error handler turns them into the API envelope. */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly details?: { path: string; message: string }[],
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, details?: { path: string; message: string }[]) {
    super(400, message, details);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Authentification requise') {
    super(401, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = "Vous n'avez pas les droits pour cette action") {
    super(403, message);
  }
}

/** Also the answer for another organization's ids: they do not exist for the caller. */
export class NotFoundError extends AppError {
  constructor(message = 'Élément introuvable') {
    super(404, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, details?: { path: string; message: string }[]) {
    super(409, message, details);
  }
}

/** Something that existed and no longer serves: a used or expired survey link. */
export class GoneError extends AppError {
  constructor(message: string) {
    super(410, message);
  }
}

/** A file larger than the limit its feature allows: nothing of it is kept. */
export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(413, message);
  }
}

/** A byte range that starts beyond the end of the file (or is not a range at all). */
export class RangeNotSatisfiableError extends AppError {
  constructor(message = "La plage d'octets demandée n'existe pas dans ce fichier.") {
    super(416, message);
  }
}

export const NO_SPACE_MESSAGE = "Plus de place sur le disque du serveur : le fichier n'a pas été enregistré. Réessayez plus tard ou prévenez l'administrateur.";

/** The server's disk is full (ENOSPC, EDQUOT): nothing of the file is kept; the administrator must make room. */
export class InsufficientStorageError extends AppError {
  constructor() {
    super(507, NO_SPACE_MESSAGE);
  }
}

/** Whether an error is a full disk or an exhausted quota. */
export function isNoSpace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

export const STORAGE_UNAVAILABLE_MESSAGE = 'Le stockage des fichiers est momentanément indisponible : le fichier n’a pas été enregistré. Réessayez dans quelques instants.';
export const STORAGE_REFUSED_MESSAGE = 'Le stockage des fichiers a refusé l’enregistrement : le fichier n’a pas été enregistré. L’administrateur en est averti.';

/**
 * The store failed a write that the request's bytes did not cause: S3 answering 5xx or
 * AccessDenied, a bucket that does not exist, a disk answering EACCES or EIO. Not the request's
 * fault, so never a 400 about the file. `transient` (a 5xx, throttling, the network): 503 with
 * Retry-After; otherwise (credentials, bucket, rights) 500, logged for the administrator.
 */
export class StorageFailureError extends Error {
  constructor(
    readonly transient: boolean,
    cause: unknown,
  ) {
    super(`storage write failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StorageFailureError';
  }
}

export class TooManyRequestsError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, undefined, { 'retry-after': String(retryAfterSeconds) });
  }
}

export const HTTP_ERROR_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

export const OVERLOADED_MESSAGE = 'Le service est très sollicité en ce moment : réessayez dans quelques secondes.';
export const DATABASE_UNAVAILABLE_MESSAGE = 'Le service est momentanément indisponible : réessayez dans quelques instants.';
export const SHUTTING_DOWN_MESSAGE = 'Le serveur redémarre : réessayez dans quelques secondes.';

/**
 * The service cannot answer now (the database is saturated, or cannot be reached): the client may
 * try again later.
 */
export class ServiceUnavailableError extends AppError {
  constructor(retryAfterSeconds: number, message = OVERLOADED_MESSAGE, details?: { path: string; message: string }[]) {
    super(503, message, details, { 'retry-after': String(retryAfterSeconds) });
  }
}
