import { useEffect, useState } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path, type Resolver } from 'react-hook-form';
import type { ApiError } from '../../lib/api';
import { placeServerErrors } from './form-errors';

interface DialogFormOptions<Values extends FieldValues> {
  resolver: Resolver<Values>;
  defaultValues: DefaultValues<Values>;
  /** The fields a 400 may name, and the server codes that belong to one of them (placeServerErrors). */
  fields: readonly Path<Values>[];
  codes?: Partial<Record<string, Path<Values>>>;
  /** Runs the dialog's action with the checked values. */
  send(values: Values): Promise<unknown>;
}

/**
 * A dialog's form: the values, a submit that runs the action and places a refusal under the
 * field it names (else answers it as `failure`, for DialogActions to show), and a reset each
 * time the dialog closes, so one opened again starts empty (a password is never kept around).
 */
export function useDialogForm<Values extends FieldValues>(opened: boolean, { resolver, defaultValues, fields, codes, send }: DialogFormOptions<Values>) {
  const [failure, setFailure] = useState<ApiError | null>(null);
  const form = useForm<Values>({ resolver, defaultValues });

  useEffect(() => {
    if (!opened) {
      form.reset();
      setFailure(null);
    }
  }, [opened, form]);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await send(values);
    } catch (error) {
      setFailure(placeServerErrors<Values>(error, form.setError, fields, codes));
    }
  });

  return { form, failure, submit };
}
