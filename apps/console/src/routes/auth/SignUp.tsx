import { Link, useNavigate, useSearchParams } from 'react-router';
import { session } from '../../api/client';
import { safeNext } from '../../lib/navigation';
import { AccountForm } from './AccountForm';
import { AuthLayout } from './AuthLayout';
import { ExternalSignIn } from './ExternalSignIn';
import { s } from './strings';

export default function SignUp() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  return (
    <AuthLayout title={s.signUp}>
      <AccountForm
        submitLabel={s.signUp}
        busyLabel={s.signingUp}
        onSubmit={async (values) => {
          await session.signIn('register', values);
          // A newcomer starts with the guide, also when signing up from `/` (which would list no applications).
          const next = safeNext(params.get('next'));
          navigate(next === '/' ? '/start' : next, { replace: true });
        }}
      />
      <div className="ap-divider">{s.or}</div>
      <ExternalSignIn />
      <p>
        {s.haveAccount} <Link to="/sign-in">{s.signIn}</Link>
      </p>
    </AuthLayout>
  );
}
