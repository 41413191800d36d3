import { useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldError } from '@portal/contracts';
import { fieldErrorText } from './api';
import { validate, type Rule, type ValidationMessage } from './validators';

/** A field's message: a rule's or the server's field error (both translated when shown). */
export type FieldMessage = ValidationMessage | { server: FieldError };

export interface Form<Values extends Record<string, unknown>> {
  values: Values;
  /** Change one field; once the form has been submitted, its rule re-checks as you type. */
  set<Field extends keyof Values>(field: Field, value: Values[Field]): void;
  /** Check every rule; shows the messages and answers whether all passed. */
  check(): boolean;
  /** Show the server's field errors (`details.fields` of a 400). */
  setServerErrors(fields: Partial<Record<string, FieldError>>): void;
  /** The field's message in the current language, if it has one. */
  error(field: keyof Values): string | undefined;
  /** A text field's value, change handler and message, to spread on its input. */
  text(field: TextField<Values>): { value: string; onChange(event: ChangeEvent<HTMLInputElement>): void; error: string | undefined };
  hasErrors: boolean;
}

/** The fields of a form that hold text. */
type TextField<Values> = { [Field in keyof Values]: Values[Field] extends string ? Field : never }[keyof Values];

/**
 * The form state of the public pages: controlled values, the validators' rules, and the
 * messages kept as keys so a language switch re-translates them. Small on purpose: the
 * sign-in page cannot carry a form library.
 */
export function useForm<Values extends Record<string, unknown>>(
  initial: Values | (() => Values),
  rules: (values: Values) => { [Field in keyof Values]?: Rule<Values[Field]> },
): Form<Values> {
  const { t } = useTranslation();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof Values, FieldMessage>>>({});
  const [checked, setChecked] = useState(false);

  const set = <Field extends keyof Values>(field: Field, value: Values[Field]) => {
    const next: Values = { ...values, [field]: value };
    setValues(next);
    if (checked) {
      // The rules' answers for every field; the server's words stay on the fields not touched.
      const found: Partial<Record<keyof Values, FieldMessage>> = validate(next as Values, rules(next as Values)).errors;
      for (const [name, kept] of Object.entries(errors) as [keyof Values, FieldMessage][]) {
        if (name !== field && 'server' in kept && !found[name]) found[name] = kept;
      }
      setErrors(found);
    } else if (field in errors) {
      const rest = { ...errors };
      delete rest[field];
      setErrors(rest);
    }
  };

  const check = () => {
    const { errors: found, valid } = validate(values, rules(values));
    setErrors(found);
    setChecked(true);
    return valid;
  };

  const setServerErrors = (fields: Partial<Record<string, FieldError>>) => {
    const found: Partial<Record<keyof Values, FieldMessage>> = {};
    for (const [field, error] of Object.entries(fields)) if (error) found[field as keyof Values] = { server: error };
    setErrors((previous) => ({ ...previous, ...found }));
  };

  const error = (field: keyof Values): string | undefined => {
    const found = errors[field];
    if (!found) return undefined;
    if ('server' in found) return fieldErrorText(found.server);
    return String(t(found.key, found.params as never));
  };

  const text = (field: TextField<Values>) => ({
    value: values[field] as string,
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(field, event.currentTarget.value as Values[typeof field]),
    error: error(field),
  });

  return { values, set, check, setServerErrors, error, text, hasErrors: Object.keys(errors).length > 0 };
}
