import { ErrorPage } from './error-page';

/** Unknown route. The sentence stays in English on purpose: SPEC section 2 quotes it so. */
export function NotFoundPage() {
  return (
    <ErrorPage
      statusCode={404}
      title="Page introuvable"
      message="This page could not be found"
      messageLang="en"
      showHomeLink
    />
  );
}
