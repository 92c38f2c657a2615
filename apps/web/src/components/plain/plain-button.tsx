import type { ButtonHTMLAttributes } from 'react';
import './plain.css';

export type PlainButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  /** Spinner in place of the label, `aria-busy`, and disabled: a second click sends nothing. */
  loading?: boolean;
  fullWidth?: boolean;
};

/** A button with the look of the theme's MUI contained large Button, in plain elements. */
export function PlainButton({ loading = false, fullWidth = false, disabled, className, children, type = 'button', ...props }: PlainButtonProps) {
  const classes = ['pl-button', fullWidth && 'pl-button--full', className].filter(Boolean).join(' ');
  return (
    <button {...props} type={type} className={classes} disabled={disabled || loading} aria-busy={loading || undefined}>
      {loading && <span className="pl-button__spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
