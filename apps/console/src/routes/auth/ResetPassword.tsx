import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { api, data } from '../../api/client';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { ErrorText } from '../../components/States';
import { AuthLayout } from './AuthLayout';
import { s } from './strings';

/** Password reset: ask for a token by e-mail, then set a new password with it (the token is pasted, never put in a URL). */
export default function ResetPassword() {
  const [sent, setSent] = useState(false);
  const request = useForm<{ email: string }>({ defaultValues: { email: '' } });
  const confirm = useForm<{ token: string; password: string }>({ defaultValues: { token: '', password: '' } });
  const ask = useMutation({ mutationFn: (body: { email: string }) => data(api.POST('/api/auth/password-reset/request', { body })), onSuccess: () => setSent(true) });
  const change = useMutation({ mutationFn: (body: { token: string; password: string }) => data(api.POST('/api/auth/password-reset/confirm', { body })) });

  return (
    <AuthLayout title={s.resetTitle}>
      <form className="ap-stack" noValidate onSubmit={request.handleSubmit((v) => ask.mutate(v))}>
        <Field label={s.email} type="email" autoComplete="email" error={request.formState.errors.email?.message} {...request.register('email', { required: s.required(s.email) })} />
        <ErrorText error={ask.error} />
        <Button type="submit" busy={ask.isPending}>
          {s.resetRequest}
        </Button>
      </form>
      {sent ? (
        <p className="ap-notice" role="status">
          {s.resetSent}
        </p>
      ) : null}
      {change.isSuccess ? (
        <p className="ap-notice" role="status">
          {s.resetDone}
        </p>
      ) : (
        <form className="ap-stack" noValidate onSubmit={confirm.handleSubmit((v) => change.mutate(v))}>
          <Field label={s.resetToken} autoComplete="one-time-code" error={confirm.formState.errors.token?.message} {...confirm.register('token', { required: s.required(s.resetToken) })} />
          <Field
            label={s.newPassword}
            type="password"
            autoComplete="new-password"
            hint={s.passwordHint}
            error={confirm.formState.errors.password?.message}
            {...confirm.register('password', { required: s.required(s.newPassword), minLength: { value: 8, message: s.passwordHint } })}
          />
          <ErrorText error={change.error} />
          <Button type="submit" variant="primary" busy={change.isPending}>
            {s.resetConfirm}
          </Button>
        </form>
      )}
      <p>
        <Link to="/sign-in">{s.backToSignIn}</Link>
      </p>
    </AuthLayout>
  );
}
