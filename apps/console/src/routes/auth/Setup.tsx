import { useNavigate, useSearchParams } from 'react-router';
import { session } from '../../api/client';
import { AccountForm } from './AccountForm';
import { AuthLayout } from './AuthLayout';
import { s } from './strings';

/**
 * A fresh install's setup link (`/setup?token=…`, printed in the start log): creates the account that becomes the
 * platform's administrator, then opens the first-run guide.
 */
export default function Setup() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();

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
      <AccountForm
        submitLabel={s.setupSubmit}
        busyLabel={s.settingUp}
        onSubmit={async (values) => {
          await session.signIn('setup', { ...values, token });
          navigate('/start', { replace: true });
        }}
      />
    </AuthLayout>
  );
}
