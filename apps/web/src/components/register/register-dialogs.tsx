import { Suspense, type ComponentType, type ReactNode } from 'react';
import type { RegisterRecord } from '../../lib/register-api';
import { lazyComponent } from '../lazy-component';
import { LazyConfirmDialog } from './lazy-confirm-dialog';
import { LoadingContent, OpenedOnce } from './lazy-dialog';
import type { RecordDetailsProps } from './record-dialog';
import type { RecordFormProps } from './record-form';
import type { RecordFormDialogProps } from './record-form-dialog';
import type { RegisterTexts } from './register-texts';
import type { RegisterActions } from './use-register-actions';

export type RegisterDialogsProps<TRecord extends RegisterRecord> = {
  actions: RegisterActions<TRecord>;
  /** The form dialog's titles: `add` and `edit`. */
  texts: Pick<RegisterTexts, 'add' | 'edit'>;
  /** The register's form (RecordForm inside); lazyComponent(…) keeps it out of the list's first load. */
  form: ComponentType<RecordFormProps<TRecord>>;
  /** 'md' for a form with two columns of many fields. */
  formWidth?: 'sm' | 'md';
  /** The register's 'Voir' dialog (RecordDialog inside); lazyComponent(…) keeps it out of the list's first load. */
  details: ComponentType<RecordDetailsProps<TRecord>>;
};

/** The form's dialog frame, fetched when first opened or ahead with the form (useRegisterActions' `preload`). */
export const RecordFormDialogFrame = lazyComponent(() => import('./record-form-dialog').then((module) => module.RecordFormDialog as ComponentType<RecordFormDialogProps<RegisterRecord>>));
const LazyRecordFormDialog = RecordFormDialogFrame as unknown as <TRecord extends RegisterRecord>(props: RecordFormDialogProps<TRecord>) => ReactNode;

/**
 * The dialogs useRegisterActions opens: add or edit, 'Voir', and the deletion's confirmation.
 * Each is rendered from the first time it opens, so a lazy form, details dialog or confirmation
 * is fetched then (or before, by useRegisterActions' `preload` on the buttons that open them).
 */
export function RegisterDialogs<TRecord extends RegisterRecord>({ actions, texts, form: Form, formWidth, details: Details }: RegisterDialogsProps<TRecord>) {
  return (
    <>
      {/* The title opens at once (in a stand-in while the frame arrives); the form fills the dialog as soon as it has arrived. */}
      <OpenedOnce open={actions.form.open} onClose={actions.form.onClose} title={actions.form.record ? texts.edit : texts.add}>
        <LazyRecordFormDialog {...actions.form} titles={texts} maxWidth={formWidth}>
          {(record, close) => (
            <Suspense fallback={<LoadingContent label="Chargement du formulaire…" />}>
              <Form record={record} onSaved={close} onCancel={close} />
            </Suspense>
          )}
        </LazyRecordFormDialog>
      </OpenedOnce>
      <OpenedOnce open={actions.details.record !== null} onClose={actions.details.onClose}>
        <Details {...actions.details} />
      </OpenedOnce>
      <LazyConfirmDialog {...actions.deleteDialog} />
    </>
  );
}
