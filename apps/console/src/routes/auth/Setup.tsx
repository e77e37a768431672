import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { session } from '../../api/client';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { ErrorText } from '../../components/States';
import { fieldErrors, toApiError } from '../../lib/errors';
import { SessionError } from '../../lib/session';
import { AuthLayout } from './AuthLayout';
import { s } from './strings';

type Values = { displayName: string; email: string; password: string };
const FIELDS = ['displayName', 'email', 'password'] as const;

/**
 * A fresh install's setup link (`/setup?token=…`, printed in the start log): creates the account that becomes the
 * platform's administrator, then opens the first-run guide.
 */
export default function Setup() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const form = useForm<Values>({ defaultValues: { displayName: '', email: '', password: '' } });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      await session.signIn('setup', { ...values, token });
      navigate('/start', { replace: true });
    } catch (e) {
      const apiError = e instanceof SessionError ? toApiError(e.status, e.body) : e;
      const byField = fieldErrors(apiError, FIELDS);
      for (const [field, message] of Object.entries(byField)) form.setError(field as keyof Values, { message: message as string });
      if (!Object.keys(byField).length) setError(apiError);
    }
  });

  if (!token) {
    return (
      <AuthLayout title={s.setupTitle}>
        <p>{s.setupNoToken}</p>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={s.setupTitle}>
      <p>{s.setupIntro}</p>
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
          {isSubmitting ? s.settingUp : s.setupSubmit}
        </Button>
      </form>
    </AuthLayout>
  );
}
