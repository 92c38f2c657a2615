import type { ConfirmDialogProps } from './confirm-dialog';
import { lazyComponent } from '../lazy-component';
import { OpenedOnce } from './lazy-dialog';

/** ConfirmDialog's module, fetched when first asked (or on `preload()`). */
export const LazyConfirm = lazyComponent(() => import('./confirm-dialog').then((module) => module.ConfirmDialog));

/** ConfirmDialog, fetched the first time it opens: same props, same focus on 'Annuler'. */
export function LazyConfirmDialog(props: ConfirmDialogProps) {
  return (
    <OpenedOnce open={props.open} onClose={props.onClose}>
      <LazyConfirm {...props} />
    </OpenedOnce>
  );
}
