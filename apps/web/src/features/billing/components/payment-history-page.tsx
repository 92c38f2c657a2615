import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { INVOICE_STATUS_LABELS, type Invoice } from '@flotte/contract';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { ResponsiveTable } from '../../../components/responsive-table';
import { downloadFile } from '../../../lib/api-download';
import { ApiError } from '../../../lib/api-error';
import { formatDate, formatEuros } from '../../../lib/format';
import { useInvoices } from '../api/billing-api';
import { PAYER_ONLY } from './billing-texts';

/** An invoice drawn by the API (embedded provider): fetched with the bearer, then saved. */
function DownloadInvoice({ invoice }: { invoice: Invoice }) {
  const [failed, setFailed] = useState(false);
  const download = async () => {
    setFailed(false);
    try {
      await downloadFile(invoice.pdfUrl!, { accept: 'application/pdf', fallbackName: `facture-${invoice.number ?? invoice.uuid}.pdf` });
    } catch {
      setFailed(true);
    }
  };
  return (
    <>
      <Link component="button" type="button" onClick={() => void download()} sx={{ verticalAlign: 'baseline' }}>
        PDF{invoice.number ? ` ${invoice.number}` : ''}
      </Link>
      {failed ? (
        <Typography component="span" variant="caption" color="error" role="alert" sx={{ display: 'block' }}>
          Téléchargement impossible, réessayez.
        </Typography>
      ) : null}
    </>
  );
}

const period = (invoice: Invoice) => (invoice.periodStart && invoice.periodEnd ? `du ${formatDate(invoice.periodStart)} au ${formatDate(invoice.periodEnd)}` : '—');

/** /parameters/payment-history: the organization's invoices, latest first (ADMIN). */
export function PaymentHistoryPage() {
  const invoices = useInvoices();
  return (
    <Box sx={{ display: 'grid', gap: 3, maxWidth: 1100 }}>
      <DocumentTitle title="Historique des paiements" />
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 2, flexWrap: 'wrap' }}>
        <Typography component="h1" variant="h4">
          Historique des paiements
        </Typography>
        <Button component={RouterLink} to="/parameters/plans">
          Voir les offres
        </Button>
      </Box>
      {invoices.isPending ? <Skeleton variant="rounded" height={160} aria-hidden /> : null}
      {invoices.isError ? <Alert severity={invoices.error instanceof ApiError && invoices.error.status === 403 ? 'info' : 'error'}>{invoices.error instanceof ApiError && invoices.error.status === 403 ? PAYER_ONLY : 'L’historique n’a pas pu être chargé.'}</Alert> : null}
      {invoices.data?.length === 0 ? <Typography color="textSecondary">Aucun paiement pour le moment.</Typography> : null}
      {invoices.data && invoices.data.length > 0 ? (
        <ResponsiveTable
          label="Factures"
          rows={invoices.data}
          rowKey={(invoice) => invoice.uuid}
          title={{ label: 'Date', value: (invoice) => formatDate(invoice.issuedAt) }}
          columns={[
            { label: 'Période', value: period },
            { label: 'Montant HT', value: (invoice) => formatEuros(invoice.amountHt), numeric: true },
            { label: 'Montant TTC', value: (invoice) => formatEuros(invoice.amountTtc), numeric: true },
            { label: 'Statut', value: (invoice) => INVOICE_STATUS_LABELS[invoice.status] },
            {
              label: 'Facture',
              value: (invoice) =>
                invoice.pdfUrl?.startsWith('/api/') ? (
                  <DownloadInvoice invoice={invoice} />
                ) : invoice.pdfUrl ? (
                  <Link href={invoice.pdfUrl} target="_blank" rel="noopener noreferrer">
                    PDF{invoice.number ? ` ${invoice.number}` : ''}
                  </Link>
                ) : (
                  (invoice.number ?? '—')
                ),
            },
          ]}
        />
      ) : null}
    </Box>
  );
}
