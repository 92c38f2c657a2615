import { Suspense, type ComponentType } from 'react';
import type { RegisterRecord } from '../../lib/register-api';
import { LazyConfirmDialog } from './lazy-confirm-dialog';
import { LoadingContent, OpenedOnce } from './lazy-dialog';
import type { RecordDetailsProps } from './record-dialog';
import type { RecordFormProps } from './record-form';
import { RecordFormDialog } from './record-form-dialog';
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

/**
 * The dialogs useRegisterActions opens: add or edit, 'Voir', and the deletion's confirmation.
 * Each is rendered from the first time it opens, so a lazy form, details dialog or confirmation
 * is fetched then (or before, by useRegisterActions' `preload` on the buttons that open them).
 */
export function RegisterDialogs<TRecord extends RegisterRecord>({ actions, texts, form: Form, formWidth, details: Details }: RegisterDialogsProps<TRecord>) {
  return (
    <>
      {/* The dialog's frame and title open at once; the form fills it as soon as it has arrived. */}
      <RecordFormDialog {...actions.form} titles={texts} maxWidth={formWidth}>
        {(record, close) => (
          <Suspense fallback={<LoadingContent label="Chargement du formulaire…" />}>
            <Form record={record} onSaved={close} onCancel={close} />
          </Suspense>
        )}
      </RecordFormDialog>
      <OpenedOnce open={actions.details.record !== null} onClose={actions.details.onClose}>
        <Details {...actions.details} />
      </OpenedOnce>
      <LazyConfirmDialog {...actions.deleteDialog} />
    </>
  );
}
