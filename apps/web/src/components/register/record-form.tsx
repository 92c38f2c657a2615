import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { zodResolver } from '@hookform/resolvers/zod';
import type { BaseSyntheticEvent, ReactNode } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path, type Resolver, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import type { RegisterRecord } from '../../lib/register-api';
import { setServerFieldErrors } from '../form/server-errors';
import { snackbar } from '../snackbar/snackbar';
import { showActionError } from './register-actions';
import type { RegisterTexts } from './register-texts';

/** What RecordFormDialog gives a register's form. */
export type RecordFormProps<TRecord extends RegisterRecord> = {
  /** The record to edit; a new one without it. */
  record?: TRecord;
  onSaved: (record: TRecord) => void;
  onCancel: () => void;
};

/** The register's writes (lib/register-api.ts), as the form sends them. */
export type RecordFormWrites<TOutput, TRecord> = {
  useCreate: () => { mutateAsync: (body: TOutput) => Promise<TRecord> };
  useUpdate: () => { mutateAsync: (input: { uuid: string; body: Partial<TOutput> }) => Promise<TRecord> };
};

type Writes<TOutput, TRecord> = {
  create: (body: TOutput) => Promise<TRecord>;
  update: (uuid: string, body: Partial<TOutput>) => Promise<TRecord>;
};

export type RecordFormOptions<TSchema extends z.ZodType<FieldValues, FieldValues>, TRecord extends RegisterRecord> = RecordFormProps<TRecord> & {
  api: RecordFormWrites<z.output<TSchema>, TRecord>;
  texts: Pick<RegisterTexts, 'add' | 'edit' | 'create' | 'created' | 'edited' | 'saveFailed'>;
  /** The contract's body schema (or the form's extension of it): the form says what the API would say. */
  schema: TSchema;
  defaultValues: DefaultValues<z.input<TSchema>>;
  /** The fields the API's 400 details may name: their messages go under them. */
  fields: readonly Path<z.input<TSchema>>[];
  /** The success snackbar's description: the saved record's name. */
  describe: (saved: TRecord) => string;
  /**
   * Sends the form; without it, POST for a new record and PATCH of the whole body for an edit.
   * Resolving undefined means there was nothing to send: the form just closes.
   */
  save?: (body: z.output<TSchema>, writes: Writes<z.output<TSchema>, TRecord>, form: UseFormReturn<z.input<TSchema>, unknown, z.output<TSchema>>) => Promise<TRecord | undefined>;
};

/**
 * A register's form: react-hook-form checked by the contract's schema, then the save with its
 * snackbar, or the API's field messages under their fields and the error snackbar. Gives the form
 * state (`control`…) and `recordForm`, the props of RecordForm.
 */
export function useRecordForm<TSchema extends z.ZodType<FieldValues, FieldValues>, TRecord extends RegisterRecord>(
  options: RecordFormOptions<TSchema, TRecord>,
) {
  const { record, onSaved, onCancel, api, texts, schema, defaultValues, fields, describe, save } = options;
  type Input = z.input<TSchema>;
  type Output = z.output<TSchema>;
  const create = api.useCreate();
  const update = api.useUpdate();
  // zodResolver types its resolver from a concrete schema; here the schema is generic, and its
  // input and output are the form's by definition.
  const resolver = zodResolver(schema) as unknown as Resolver<Input, unknown, Output>;
  const form = useForm<Input, unknown, Output>({ resolver, defaultValues });
  const writes: Writes<Output, TRecord> = {
    create: (body) => create.mutateAsync(body),
    update: (uuid, body) => update.mutateAsync({ uuid, body }),
  };

  const submit = form.handleSubmit(async (body) => {
    try {
      const saved = save ? await save(body, writes, form) : record ? await writes.update(record.uuid, body) : await writes.create(body);
      if (saved === undefined) {
        onCancel();
        return;
      }
      snackbar.show({ type: 'success', title: record ? texts.edited : texts.created, description: describe(saved) });
      onSaved(saved);
    } catch (error) {
      setServerFieldErrors(error, form.setError, fields);
      showActionError(error, texts.saveFailed);
    }
  });

  const recordForm: Omit<RecordFormLayoutProps, 'children'> = {
    label: record ? texts.edit : texts.add,
    submitLabel: record ? 'Enregistrer' : texts.create,
    onSubmit: submit,
    onCancel,
    pending: form.formState.isSubmitting,
  };
  return { ...form, recordForm };
}

export type RecordFormLayoutProps = {
  /** The form's accessible name, as the dialog's title. */
  label: string;
  submitLabel: string;
  onSubmit: (event?: BaseSyntheticEvent) => Promise<void>;
  onCancel: () => void;
  pending: boolean;
  children: ReactNode;
};

/** The <form> of a register record: its fields, then 'Annuler' and the submit button. */
export function RecordForm({ label, submitLabel, onSubmit, onCancel, pending, children }: RecordFormLayoutProps) {
  return (
    <Box component="form" noValidate aria-label={label} onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2.5, pt: 1 }}>
      {children}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5, flexWrap: 'wrap' }}>
        <Button onClick={onCancel} disabled={pending}>
          Annuler
        </Button>
        <Button type="submit" variant="contained" loading={pending}>
          {submitLabel}
        </Button>
      </Box>
    </Box>
  );
}

/** Two fields side by side, one above the other on a phone. */
export const TWO_COLUMNS = { display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;
