import type { ReactNode } from 'react';
import { ErrorOutlineIcon } from './plain-icons';
import './plain.css';

/** An error message with the look of MUI's standard error Alert, announced (`role="alert"`). */
export function PlainAlert({ children }: { children: ReactNode }) {
  return (
    <div className="pl-alert" role="alert">
      <div className="pl-alert__icon">
        <ErrorOutlineIcon />
      </div>
      <div className="pl-alert__message">{children}</div>
    </div>
  );
}
