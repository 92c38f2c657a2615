import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DocumentTitle } from '../document-title';

type ErrorPageProps = {
  statusCode: number;
  message: ReactNode;
  title: string;
  /** Language of `message` when it is not French (SPEC keeps an English 404 sentence). */
  messageLang?: string;
  showHomeLink?: boolean;
  action?: ReactNode;
};

/**
 * Full-page error: big status code, message, and the way back. Plain elements and the entry's
 * CSS (app/styles/base.css), not MUI: it is the router's error element, shown when a route's
 * chunk could not load, so it must need nothing more to load.
 */
export function ErrorPage({ statusCode, message, title, messageLang, showHomeLink = false, action }: ErrorPageProps) {
  return (
    <main className="fa-error">
      <DocumentTitle title={title} />
      <p aria-hidden className="fa-error__code">
        {statusCode}
      </p>
      <h1 lang={messageLang} className="fa-error__title">
        {message}
      </h1>
      <div className="fa-error__actions">
        {showHomeLink && (
          <Link to="/" className="fa-button fa-button--contained">
            Retour à l&apos;accueil
          </Link>
        )}
        {action}
      </div>
    </main>
  );
}
