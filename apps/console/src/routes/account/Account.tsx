import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { session } from '../../api/client';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { formatDate, formatDateTime, formatNumber } from '../../lib/format';
import { t } from '../../lib/strings';
import { useChangePassword, useDeleteAccount, useIdentities, useProfile, useSaveProfile, useSignInProviders, useUnlinkIdentity, useUsage, type Identity, type User } from './queries';
import { s } from './strings';

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section className="ap-card ap-stack" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function ProfileForm({ user }: { user: User }) {
  const save = useSaveProfile();
  const form = useForm<{ displayName: string }>({ defaultValues: { displayName: user.displayName ?? '' } });
  const submit = form.handleSubmit(({ displayName }) =>
    save.mutate(displayName.trim(), {
      onError: (error) => {
        const message = fieldErrors(error, ['displayName'] as const).displayName;
        if (message) form.setError('displayName', { message });
      },
    }),
  );
  return (
    <>
      <dl className="ap-facts">
        <dt>{s.email}</dt>
        <dd>{user.email}</dd>
        <dt>{s.role}</dt>
        <dd>{user.role}</dd>
        {user.createdAt ? (
          <>
            <dt>{s.memberSince}</dt>
            <dd>{formatDate(user.createdAt)}</dd>
          </>
        ) : null}
      </dl>
      <form className="ap-inline-form" noValidate onSubmit={submit}>
        <Field label={s.displayName} autoComplete="name" error={form.formState.errors.displayName?.message} {...form.register('displayName')} />
        <Button type="submit" variant="primary" busy={save.isPending}>
          {s.saveProfile}
        </Button>
      </form>
      {save.isSuccess ? (
        <p className="ap-muted" role="status">
          {s.profileSaved}
        </p>
      ) : null}
      {save.error && !fieldErrors(save.error, ['displayName'] as const).displayName ? <ErrorText error={save.error} /> : null}
    </>
  );
}

const PASSWORD_FIELDS = ['currentPassword', 'newPassword'] as const;

function PasswordForm() {
  const change = useChangePassword();
  const form = useForm<{ currentPassword: string; newPassword: string }>({ defaultValues: { currentPassword: '', newPassword: '' } });
  const submit = form.handleSubmit((values) =>
    change.mutate(values, {
      // Every session was signed out by the server, this one too.
      onSuccess: () => void session.signOut(),
      onError: (error) => {
        const messages = fieldErrors(error, PASSWORD_FIELDS);
        for (const field of PASSWORD_FIELDS) if (messages[field]) form.setError(field, { message: messages[field] });
      },
    }),
  );
  const unplaced = change.error && !Object.keys(fieldErrors(change.error, PASSWORD_FIELDS)).length;
  return (
    <form className="ap-stack ap-narrow" noValidate onSubmit={submit}>
      <p className="ap-muted">{s.passwordHint}</p>
      <Field label={s.currentPassword} type="password" autoComplete="current-password" error={form.formState.errors.currentPassword?.message} {...form.register('currentPassword', { required: s.required(s.currentPassword) })} />
      <Field label={s.newPassword} type="password" autoComplete="new-password" error={form.formState.errors.newPassword?.message} {...form.register('newPassword', { required: s.required(s.newPassword) })} />
      {unplaced ? <ErrorText error={change.error} /> : null}
      <div className="ap-actions">
        <Button type="submit" variant="primary" busy={change.isPending}>
          {s.changePassword}
        </Button>
      </div>
    </form>
  );
}

function Identities() {
  const identities = useIdentities();
  const providers = useSignInProviders();
  const unlink = useUnlinkIdentity();
  const [confirming, setConfirming] = useState<Identity | null>(null);
  if (identities.isPending) return <Loading />;
  if (identities.isError) return <ErrorState error={identities.error} onRetry={() => void identities.refetch()} />;
  const name = (provider?: string) => s.identityProviders[provider ?? ''] ?? provider ?? '';
  const linked = new Set(identities.data.map((i) => i.provider));
  const offered = (providers.data ?? []).filter((p) => p.id && p.authorizeUrl?.startsWith('/') && !linked.has(p.id));
  return (
    <>
      {identities.data.length === 0 ? (
        <p className="ap-muted">{s.identitiesEmpty}</p>
      ) : (
        <ul className="ap-notifications" aria-label={s.identities}>
          {identities.data.map((identity) => (
            <li key={identity.id} className="ap-notification">
              <div className="ap-notification__text">
                <p className="ap-strong">{name(identity.provider)}</p>
                <p className="ap-muted">
                  {identity.email ? s.linkedAs(identity.email) : ''}
                  {identity.lastLoginAt ? ` · ${s.lastSignIn(formatDateTime(identity.lastLoginAt))}` : ''}
                </p>
              </div>
              <Button aria-label={s.unlinkLabel(name(identity.provider))} onClick={() => setConfirming(identity)}>
                {s.unlink}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {offered.length ? (
        <>
          <div className="ap-actions">
            {offered.map((p) => (
              <a key={p.id} className="ap-button ap-button--secondary" href={p.authorizeUrl}>
                {s.link(p.name ?? name(p.id))}
              </a>
            ))}
          </div>
          <p className="ap-muted">{s.linkHint}</p>
        </>
      ) : null}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) {
            setConfirming(null);
            unlink.reset();
          }
        }}
        title={s.unlinkTitle(name(confirming?.provider))}
        description={s.unlinkBody}
        confirmLabel={s.unlink}
        busy={unlink.isPending}
        error={unlink.error}
        onConfirm={() => confirming?.id && unlink.mutate(confirming.id, { onSuccess: () => setConfirming(null) })}
      />
    </>
  );
}

function PlanAndUsage() {
  const usage = useUsage();
  if (usage.isPending) return <Loading />;
  if (usage.isError) return <ErrorState error={usage.error} onRetry={() => void usage.refetch()} />;
  const u = usage.data;
  if (!u.plan) return <EmptyState title={s.plan} />;
  const limit = (n?: number | null) => (n === null || n === undefined ? s.unlimited : formatNumber(n));
  const rows: [string, string][] = [
    [s.usageLabels.tokensUsed, s.of(formatNumber(u.usage?.tokensUsed ?? 0), limit(u.limits?.includedTokens))],
    [s.usageLabels.tokensRemaining, u.usage?.tokensRemaining === null || u.usage?.tokensRemaining === undefined ? s.unlimited : formatNumber(u.usage.tokensRemaining)],
    [s.usageLabels.ownKeyTokens, formatNumber(u.usage?.ownKeyTokens ?? 0)],
    [s.usageLabels.overageTokens, formatNumber(u.usage?.overageTokens ?? 0)],
    [s.usageLabels.messages, s.of(formatNumber(u.usage?.messages ?? 0), limit(u.limits?.messagesPerMonth))],
    [s.usageLabels.applications, s.of(formatNumber(u.usage?.applications ?? 0), limit(u.limits?.applications))],
    [s.usageLabels.apiKeys, s.of(formatNumber(u.usage?.apiKeys ?? 0), limit(u.limits?.apiKeys))],
  ];
  return (
    <>
      <p className="ap-strong">{s.planLine(s.planName[u.plan] ?? u.plan, u.status ?? '')}</p>
      {u.period?.start && u.period.end ? <p className="ap-muted">{s.period(formatDate(u.period.start), formatDate(u.period.end))}</p> : null}
      <dl className="ap-facts">
        {rows.map(([label, value]) => (
          <div key={label} className="ap-facts__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

function DeleteAccount() {
  const [open, setOpen] = useState(false);
  const remove = useDeleteAccount();
  const form = useForm<{ password: string }>({ defaultValues: { password: '' } });
  useEffect(() => {
    if (!open) {
      form.reset();
      remove.reset();
    }
  }, [open]);
  const submit = form.handleSubmit(({ password }) =>
    remove.mutate(password, {
      onSuccess: () => void session.signOut(),
      onError: (error) => {
        const message = fieldErrors(error, ['password'] as const).password;
        if (message) form.setError('password', { message });
      },
    }),
  );
  return (
    <>
      <p className="ap-muted">{s.dangerBody}</p>
      <div className="ap-actions">
        <Button variant="danger" onClick={() => setOpen(true)}>
          {s.deleteAccount}
        </Button>
      </div>
      <Dialog open={open} onOpenChange={setOpen} title={s.deleteTitle} description={s.dangerBody}>
        <form className="ap-stack" noValidate onSubmit={submit}>
          <Field label={s.password} type="password" autoComplete="current-password" hint={s.deleteConfirmHint} error={form.formState.errors.password?.message} {...form.register('password', { required: s.required(s.password) })} />
          {remove.error && !fieldErrors(remove.error, ['password'] as const).password ? <ErrorText error={remove.error} /> : null}
          <div className="ap-actions">
            <Button onClick={() => setOpen(false)}>{t.cancel}</Button>
            <Button type="submit" variant="danger" busy={remove.isPending}>
              {s.deleteAccount}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

export default function Account() {
  const profile = useProfile();
  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      <div className="ap-stack">
        <Section id="account-profile" title={s.profile}>
          {profile.isPending ? <Loading /> : profile.isError ? <ErrorState error={profile.error} onRetry={() => void profile.refetch()} /> : <ProfileForm user={profile.data} />}
        </Section>
        <Section id="account-password" title={s.password}>
          <PasswordForm />
        </Section>
        <Section id="account-identities" title={s.identities}>
          <Identities />
        </Section>
        <Section id="account-plan" title={s.plan}>
          <PlanAndUsage />
        </Section>
        <Section id="account-delete" title={s.danger}>
          <DeleteAccount />
        </Section>
      </div>
    </>
  );
}
