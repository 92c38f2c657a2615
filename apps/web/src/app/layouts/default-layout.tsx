import { Outlet } from 'react-router';

/** Bare layout (error pages). */
export function DefaultLayout() {
  return <Outlet />;
}
