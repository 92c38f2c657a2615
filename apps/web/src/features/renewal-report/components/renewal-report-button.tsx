import { DownloadButton } from '../../../components/download-button';

export type RenewalReportButtonProps = {
  /** The dashboard's window (YYYY-MM-DD, both days included); the API's default when absent. */
  startDate?: string | undefined;
  endDate?: string | undefined;
  /** true, false, or undefined for every claim. */
  isDeclared?: boolean | undefined;
};

/**
 * « Rapport de sinistralité »: downloads the PDF of the window (GET /api/dashboard/renewal-report,
 * generated on the server; no PDF library in the web app).
 */
export function RenewalReportButton({ startDate, endDate, isDeclared }: RenewalReportButtonProps) {
  return (
    <DownloadButton
      path="/api/dashboard/renewal-report"
      accept="application/pdf"
      query={{ startDate, endDate, isDeclared }}
      fallbackName="rapport-sinistralite.pdf"
      failure="Le rapport de sinistralité n'a pas pu être téléchargé"
    >
      Rapport de sinistralité
    </DownloadButton>
  );
}
