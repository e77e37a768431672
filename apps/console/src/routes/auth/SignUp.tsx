import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { session } from '../../api/client';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { ErrorText } from '../../components/States';
import { fieldErrors, toApiError } from '../../lib/errors';
import { SessionError } from '../../lib/session';
import { safeNext } from '../../lib/navigation';
import { AuthLayout } from './AuthLayout';
import { ExternalSignIn } from './ExternalSignIn';
import { s } from './strings';

type Values = { displayName: string; email: string; password: string };
const FIELDS = ['displayName', 'email', 'password'] as const;

export default function SignUp() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const form = useForm<Values>({ defaultValues: { displayName: '', email: '', password: '' } });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      await session.signIn('register', values);
      // A newcomer starts with the guide, also when signing up from `/` (which would list no applications).
      const next = safeNext(params.get('next'));
      navigate(next === '/' ? '/start' : next, { replace: true });
    } catch (e) {
      const apiError = e instanceof SessionError ? toApiError(e.status, e.body) : e;
      const byField = fieldErrors(apiError, FIELDS);
      for (const [field, message] of Object.entries(byField)) form.setError(field as keyof Values, { message: message as string });
      if (!Object.keys(byField).length) setError(apiError);
    }
  });

  return (
    <AuthLayout title={s.signUp}>
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
          {isSubmitting ? s.signingUp : s.signUp}
        </Button>
      </form>
      <div className="ap-divider">{s.or}</div>
      <ExternalSignIn />
      <p>
        {s.haveAccount} <Link to="/sign-in">{s.signIn}</Link>
      </p>
    </AuthLayout>
  );
}
