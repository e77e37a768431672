import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { session } from '../../api/client';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { ErrorText } from '../../components/States';
import { SessionError } from '../../lib/session';
import { t } from '../../lib/strings';
import { safeNext } from '../../lib/navigation';
import { AuthLayout } from './AuthLayout';
import { ExternalSignIn } from './ExternalSignIn';
import { s } from './strings';

export default function SignIn() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const form = useForm<{ email: string; password: string }>({ defaultValues: { email: '', password: '' } });
  const { errors, isSubmitting } = form.formState;
  const notice = params.get('expired') ? t.sessionExpired : params.get('failed') ? s.externalFailed : null;

  const submit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      await session.signIn('login', values);
      navigate(safeNext(params.get('next')), { replace: true });
    } catch (e) {
      setError(e instanceof SessionError ? new Error(e.message) : e);
    }
  });

  return (
    <AuthLayout title={s.signIn}>
      {notice ? (
        <p className="ap-notice" role="status">
          {notice}
        </p>
      ) : null}
      <form onSubmit={submit} noValidate className="ap-stack">
        <Field label={s.email} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email', { required: s.required(s.email) })} />
        <Field label={s.password} type="password" autoComplete="current-password" error={errors.password?.message} {...form.register('password', { required: s.required(s.password) })} />
        <ErrorText error={error} />
        <Button type="submit" variant="primary" busy={isSubmitting}>
          {isSubmitting ? s.signingIn : s.signIn}
        </Button>
      </form>
      <p>
        <Link to="/reset-password">{s.forgot}</Link>
      </p>
      <div className="ap-divider">{s.or}</div>
      <ExternalSignIn />
      <p>
        {s.noAccount} <Link to={`/sign-up${params.get('next') ? `?next=${encodeURIComponent(params.get('next')!)}` : ''}`}>{s.signUp}</Link>
      </p>
    </AuthLayout>
  );
}
