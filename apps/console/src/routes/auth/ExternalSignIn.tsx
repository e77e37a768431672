import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { s } from './strings';

/** GitHub and Google buttons (only those the platform offers) and the team SSO by slug. */
export function ExternalSignIn() {
  const providers = useQuery({ queryKey: ['auth', 'providers'], queryFn: () => data(api.GET('/api/auth/providers')), retry: false });
  const [slug, setSlug] = useState('');
  return (
    <div className="ap-external">
      {providers.data?.length ? (
        <div className="ap-stack">
          {providers.data.map((p) => (
            <a key={p.id} className="ap-button ap-button--secondary" href={p.authorizeUrl}>
              {s.continueWith(p.name ?? p.id ?? '')}
            </a>
          ))}
        </div>
      ) : null}
      <form
        className="ap-inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          const clean = slug.trim();
          if (clean) window.location.assign(`/api/sso/${encodeURIComponent(clean)}/login`);
        }}
      >
        <Field label={s.teamSlug} name="teamSlug" value={slug} onChange={(e) => setSlug(e.target.value)} autoComplete="organization" hint={s.sso} />
        <Button type="submit">{s.continue}</Button>
      </form>
    </div>
  );
}
