/**
 * Centered spinner while a route or the current user loads. Plain elements and the entry's CSS
 * (app/styles/base.css): it shows before MUI has loaded, so it must not need it.
 */
export function PageLoader({ label = 'Chargement…', fullScreen = false }: { label?: string; fullScreen?: boolean }) {
  return (
    <div role="status" aria-live="polite" className={fullScreen ? 'fa-loader fa-loader--full' : 'fa-loader'}>
      <div role="progressbar" aria-label={label} className="fa-loader__ring" />
    </div>
  );
}
