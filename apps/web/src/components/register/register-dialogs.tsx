import type { ComponentType } from 'react';
import type { RegisterRecord } from '../../lib/register-api';
import { ConfirmDialog } from './confirm-dialog';
import type { RecordDetailsProps } from './record-dialog';
import type { RecordFormProps } from './record-form';
import { RecordFormDialog } from './record-form-dialog';
import type { RegisterTexts } from './register-texts';
import type { RegisterActions } from './use-register-actions';

export type RegisterDialogsProps<TRecord extends RegisterRecord> = {
  actions: RegisterActions<TRecord>;
  /** The form dialog's titles: `add` and `edit`. */
  texts: Pick<RegisterTexts, 'add' | 'edit'>;
  /** The register's form (RecordForm inside). */
  form: ComponentType<RecordFormProps<TRecord>>;
  /** 'md' for a form with two columns of many fields. */
  formWidth?: 'sm' | 'md';
  /** The register's 'Voir' dialog (RecordDialog inside). */
  details: ComponentType<RecordDetailsProps<TRecord>>;
};

/** The dialogs useRegisterActions opens: add or edit, 'Voir', and the deletion's confirmation. */
export function RegisterDialogs<TRecord extends RegisterRecord>({ actions, texts, form: Form, formWidth, details: Details }: RegisterDialogsProps<TRecord>) {
  return (
    <>
      <RecordFormDialog {...actions.form} titles={texts} maxWidth={formWidth}>
        {(record, close) => <Form record={record} onSaved={close} onCancel={close} />}
      </RecordFormDialog>
      <Details {...actions.details} />
      <ConfirmDialog {...actions.deleteDialog} />
    </>
  );
}
