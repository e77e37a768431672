import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Circle } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { api, data } from '../../api/client';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { ErrorState, ErrorText, Loading } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { useScope } from '../../lib/scope';
import { s } from './strings';

type ProviderId = 'provider_a' | 'provider_b' | 'provider_c' | 'provider_d';

function Step({ n, title, done, children }: { n: number; title: string; done: boolean; children: ReactNode }) {
  return (
    <li className="ap-card ap-step">
      <h2>
        {done ? <CheckCircle2 aria-hidden size={18} className="ap-step__done" /> : <Circle aria-hidden size={18} />} {n}. {title}
        <span className="ap-visually-hidden"> ({done ? s.done : s.todo})</span>
      </h2>
      {children}
    </li>
  );
}

/** The first-run path: application → provider key (or the plan's platform keys) → first chat → embed snippet. */
export default function FirstRun() {
  const client = useQueryClient();
  const apps = useQuery({ queryKey: ['applications', 'choices'], queryFn: () => data(api.GET('/api/applications', { params: { query: { limit: 100 } } })) });
  // The guide reads what exists now on every visit (a chat or a key made elsewhere marks its step), not a cached answer.
  const usage = useQuery({ queryKey: ['billing', 'usage'], queryFn: () => data(api.GET('/api/billing/usage')), staleTime: 0 });
  const keys = useQuery({ queryKey: ['provider-keys'], queryFn: () => data(api.GET('/api/provider-keys')) });
  // Progress is read from what exists: any conversation of the caller's applications (playground or widget) marks the chat done.
  const conversations = useQuery({ queryKey: ['conversations', 'first-run'], queryFn: () => data(api.GET('/api/conversations', { params: { query: { limit: 1 } } })), staleTime: 0 });
  // A team chosen in the switcher holds the new application (the API checks the Admin role there and the
  // team Owner's plan); otherwise it is the caller's own.
  const current = useScope();
  const teamId = current === 'all' || current === 'personal' ? null : current;
  const team = useQuery({ queryKey: ['scope-team', teamId], enabled: !!teamId, queryFn: () => data(api.GET('/api/teams/{id}', { params: { path: { id: teamId! } } })) });
  const createApp = useMutation({
    mutationFn: (name: string) => data(api.POST('/api/applications', { body: teamId ? { name, teamId } : { name } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['applications'] }),
  });
  const [provider, setProvider] = useState<ProviderId>('provider_a');
  const saveKey = useMutation({
    mutationFn: (apiKey: string) => data(api.PUT('/api/provider-keys/{provider}', { params: { path: { provider } }, body: { apiKey } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['provider-keys'] }),
  });
  const appForm = useForm<{ name: string }>({ defaultValues: { name: '' } });
  const keyForm = useForm<{ apiKey: string }>({ defaultValues: { apiKey: '' } });

  if (apps.isPending || usage.isPending || keys.isPending || conversations.isPending) return <Loading />;
  const failed = apps.error ?? usage.error ?? keys.error ?? conversations.error;
  if (failed) return <ErrorState error={failed} onRetry={() => void Promise.all([apps.refetch(), usage.refetch(), keys.refetch(), conversations.refetch()])} />;

  const app = apps.data?.[0];
  const plan = usage.data?.effectivePlan ?? usage.data?.plan ?? 'free';
  const admin = usage.data?.exempt === true;
  // The API says whether the platform's keys serve this account (a plan that includes them, or the admin).
  const platformKeys = usage.data?.platformKeys ?? plan !== 'free';
  const ownKey = keys.data?.find((k) => k.isActive !== false) ?? keys.data?.[0];
  const modelReady = platformKeys || !!ownKey;
  const chatted = (conversations.data?.length ?? 0) > 0;
  const embedded = (usage.data?.usage?.apiKeys ?? 0) > 0;

  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      <ol className="ap-steps">
        <Step n={1} title={s.step1} done={!!app}>
          {app ? (
            <p>{s.step1Done(app.name ?? '')}</p>
          ) : (
            <form
              className="ap-inline-form"
              noValidate
              onSubmit={appForm.handleSubmit(({ name }) =>
                createApp.mutate(name.trim(), {
                  onError: (error) => {
                    const message = fieldErrors(error, ['name'] as const).name;
                    if (message) appForm.setError('name', { message });
                  },
                }),
              )}
            >
              <Field
                label={s.appName}
                hint={teamId && team.data ? s.inTeam(team.data.name ?? '') : undefined}
                error={appForm.formState.errors.name?.message}
                {...appForm.register('name', { required: `${s.appName} is required` })}
              />
              <Button type="submit" variant="primary" busy={createApp.isPending}>
                {s.createApp}
              </Button>
            </form>
          )}
          {createApp.error && !fieldErrors(createApp.error, ['name'] as const).name ? <ErrorText error={createApp.error} /> : null}
        </Step>
        <Step n={2} title={s.step2} done={modelReady}>
          {ownKey ? <p>{s.ownKeySaved(s.providers[ownKey.provider!] ?? ownKey.provider!, ownKey.keyHint!)}</p> : null}
          {platformKeys ? (
            <p>{admin ? s.platformServesAdmin : s.platformServes(plan)}</p>
          ) : !ownKey ? (
            <>
              <p>{s.freeNeedsKey}</p>
              <form
                className="ap-inline-form"
                noValidate
                onSubmit={keyForm.handleSubmit(({ apiKey }) =>
                  saveKey.mutate(apiKey.trim(), {
                    onError: (error) => {
                      const message = fieldErrors(error, ['apiKey'] as const).apiKey;
                      if (message) keyForm.setError('apiKey', { message });
                    },
                  }),
                )}
              >
                <div className="ap-field">
                  <label htmlFor="fr-provider">{s.provider}</label>
                  <select id="fr-provider" className="ap-select" value={provider} onChange={(e) => setProvider(e.target.value as ProviderId)}>
                    {Object.entries(s.providers).map(([id, name]) => (
                      <option key={id} value={id}>
                        {name}
                      </option>
                    ))}
                  </select>
                </div>
                <Field label={s.apiKey} type="password" autoComplete="off" error={keyForm.formState.errors.apiKey?.message} {...keyForm.register('apiKey', { required: `${s.apiKey} is required` })} />
                <Button type="submit" variant="primary" busy={saveKey.isPending}>
                  {s.saveKey}
                </Button>
              </form>
              {saveKey.error && !fieldErrors(saveKey.error, ['apiKey'] as const).apiKey ? <ErrorText error={saveKey.error} /> : null}
            </>
          ) : null}
          <p>
            <Link to="/provider-keys">{s.manageKeys}</Link>
          </p>
        </Step>
        <Step n={3} title={s.step3} done={chatted}>
          <p>{s.step3Body}</p>
          {app && modelReady ? (
            <Link className="ap-button ap-button--primary" to={`/playground/${app.id}`}>
              {s.openPlayground}
            </Link>
          ) : null}
        </Step>
        <Step n={4} title={s.step4} done={embedded}>
          <p>{s.step4Body}</p>
          {app ? (
            <Link className="ap-button ap-button--secondary" to={`/api-keys?app=${app.id}`}>
              {s.openEmbed}
            </Link>
          ) : null}
        </Step>
      </ol>
    </>
  );
}
