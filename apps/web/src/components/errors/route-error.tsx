import { isRouteErrorResponse, useRouteError } from 'react-router';
import { withReference } from '../../lib/api-error';
import { isChunkLoadError } from '../../lib/chunk-load-guard';
import { ErrorPage } from './error-page';
import { NotFoundPage } from './not-found-page';

type ErrorDescription = { statusCode: number; message: string };

const GENERIC_MESSAGE = 'Une erreur inattendue est survenue.';

function readStatus(value: unknown): number | undefined {
  return typeof value === 'number' && value >= 400 && value < 600 ? value : undefined;
}

/** statusCode from the error itself or from its response, 500 by default (SPEC section 8). */
export function describeError(error: unknown): ErrorDescription {
  if (isRouteErrorResponse(error)) {
    const data: unknown = error.data;
    const message =
      typeof data === 'object' && data !== null && 'message' in data && typeof data.message === 'string'
        ? withReference(data.message, error.status, 'requestId' in data && typeof data.requestId === 'string' ? data.requestId : null)
        : error.statusText || GENERIC_MESSAGE;
    return { statusCode: error.status, message };
  }
  if (isChunkLoadError(error)) {
    return {
      statusCode: 500,
      message: 'Une nouvelle version de FlotteAssur est disponible. Rechargez la page pour continuer.',
    };
  }
  if (typeof error === 'object' && error !== null) {
    const record = error as { statusCode?: unknown; status?: unknown; response?: { status?: unknown }; message?: unknown };
    const statusCode =
      readStatus(record.statusCode) ?? readStatus(record.response?.status) ?? readStatus(record.status) ?? 500;
    const message = typeof record.message === 'string' && record.message ? record.message : GENERIC_MESSAGE;
    return { statusCode, message };
  }
  return { statusCode: 500, message: typeof error === 'string' && error ? error : GENERIC_MESSAGE };
}

/** Route error element: what a crash, a failed lazy import or a thrown Response shows. */
export function RouteError() {
  const error = useRouteError();
  const { statusCode, message } = describeError(error);
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <ErrorPage
      statusCode={statusCode}
      title="Erreur"
      message={message}
      showHomeLink={statusCode === 404}
      action={
        statusCode === 404 ? undefined : (
          <button type="button" className="fa-button fa-button--outlined" onClick={() => window.location.reload()}>
            Recharger la page
          </button>
        )
      }
    />
  );
}
