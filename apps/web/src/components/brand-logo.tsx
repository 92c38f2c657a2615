import './brand-logo.css';

/** FlotteAssur wordmark; `inverted` for dark backgrounds. Plain elements: no MUI on the login page. */
export function BrandLogo({ inverted = false }: { inverted?: boolean }) {
  return (
    <span className={inverted ? 'brand-logo brand-logo--inverted' : 'brand-logo'}>
      <svg className="brand-logo__mark" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
        <rect width="64" height="64" rx="14" fill={inverted ? '#ffffff' : '#1d4ed8'} />
        <path d="M18 44V20h26v6H25v5h16v6H25v7z" fill={inverted ? '#1d4ed8' : '#ffffff'} />
      </svg>
      <span className="brand-logo__name">
        Flotte<span className="brand-logo__accent">Assur</span>
      </span>
    </span>
  );
}
