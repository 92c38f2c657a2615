import FirstPage from '@mui/icons-material/FirstPage';
import KeyboardArrowLeft from '@mui/icons-material/KeyboardArrowLeft';
import KeyboardArrowRight from '@mui/icons-material/KeyboardArrowRight';
import LastPage from '@mui/icons-material/LastPage';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { formatCount } from '../../lib/format';


/** '1–10 sur 25', as MUI's French TablePagination; 'sur plus de 1 000' when the API capped the total. */
export function pageRangeLabel(from: number, to: number, total: number, totalIsCapped: boolean): string {
  return `${formatCount(from)}–${formatCount(to)} sur ${totalIsCapped ? 'plus de ' : ''}${formatCount(total)}`;
}

type RegisterPaginationProps = {
  /** 1-based page, already within 1…lastPage. */
  page: number;
  pageSize: number;
  total: number;
  totalIsCapped: boolean;
  /** First and last page buttons: on wide screens. */
  showEdges: boolean;
  onPageChange: (page: number) => void;
};

function PageButton({ label, disabled, onClick, children }: { label: string; disabled: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <IconButton aria-label={label} title={label} disabled={disabled} onClick={onClick} color="inherit">
      {children}
    </IconButton>
  );
}

/**
 * The register's pagination: the range shown and the page buttons, with MUI's French labels
 * (« Aller à la page suivante »…). Not MUI's TablePagination: its buttons carry tooltips, and
 * Tooltip brings Popper — ≈ 10 kB (brotli) on every register's first load for a hover hint
 * (issue 10); the buttons' `title` gives that hint.
 */
export function RegisterPagination({ page, pageSize, total, totalIsCapped, showEdges, onPageChange }: RegisterPaginationProps) {
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  const first = page <= 1;
  const last = page >= lastPage;
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'flex-end',
        gap: { xs: 1, sm: 2.5 },
        minHeight: 52,
        px: { xs: 1, sm: 2 },
        borderTop: 1,
        borderColor: 'divider',
        color: 'text.primary',
      }}
    >
      <Typography variant="body2" sx={{ flexShrink: 0 }}>
        {pageRangeLabel(from, to, total, totalIsCapped)}
      </Typography>
      <Box sx={{ display: 'flex', flexShrink: 0 }}>
        {showEdges && (
          <PageButton label="Aller à la première page" disabled={first} onClick={() => onPageChange(1)}>
            <FirstPage />
          </PageButton>
        )}
        <PageButton label="Aller à la page précédente" disabled={first} onClick={() => onPageChange(page - 1)}>
          <KeyboardArrowLeft />
        </PageButton>
        <PageButton label="Aller à la page suivante" disabled={last} onClick={() => onPageChange(page + 1)}>
          <KeyboardArrowRight />
        </PageButton>
        {showEdges && (
          <PageButton label="Aller à la dernière page" disabled={last} onClick={() => onPageChange(lastPage)}>
            <LastPage />
          </PageButton>
        )}
      </Box>
    </Box>
  );
}
