import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { ErrorText } from '../../components/States';
import { fieldErrors, toApiError } from '../../lib/errors';
import { SessionError } from '../../lib/session';
import { s } from './strings';

export type AccountValues = { displayName: string; email: string; password: string };
const FIELDS = ['displayName', 'email', 'password'] as const;

/**
 * The new account's name, e-mail and password, as signing up and a fresh install's setup both ask them: the server's
 * refusals land under the field they name, the others under the form.
 */
export function AccountForm({ onSubmit, submitLabel, busyLabel }: { onSubmit: (values: AccountValues) => Promise<void>; submitLabel: string; busyLabel: string }) {
  const [error, setError] = useState<unknown>(null);
  const form = useForm<AccountValues>({ defaultValues: { displayName: '', email: '', password: '' } });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      await onSubmit(values);
    } catch (e) {
      const apiError = e instanceof SessionError ? toApiError(e.status, e.body) : e;
      const byField = fieldErrors(apiError, FIELDS);
      for (const [field, message] of Object.entries(byField)) form.setError(field as keyof AccountValues, { message: message as string });
      if (!Object.keys(byField).length) setError(apiError);
    }
  });

  return (
    <form onSubmit={submit} noValidate className="ap-stack">
      <Field label={s.displayName} autoComplete="name" error={errors.displayName?.message} {...form.register('displayName', { required: s.required(s.displayName) })} />
      <Field label={s.email} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email', { required: s.required(s.email) })} />
      <Field
        label={s.password}
        type="password"
        autoComplete="new-password"
        hint={s.passwordHint}
        error={errors.password?.message}
        {...form.register('password', { required: s.required(s.password), minLength: { value: 8, message: s.passwordHint } })}
      />
      <ErrorText error={error} />
      <Button type="submit" variant="primary" busy={isSubmitting}>
        {isSubmitting ? busyLabel : submitLabel}
      </Button>
    </form>
  );
}
