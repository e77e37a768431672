import { CheckCircle2, Trash2, XCircle } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Field } from '../../components/Field';
import { ErrorText } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import { s } from './strings';
import { useDeleteProviderKey, useSaveProviderKey, useValidateProviderKey, type ProviderId, type ProviderKey } from './queries';

/** One provider: its saved key's hint, save or replace, validate with the provider's answer, delete. */
export function ProviderKeyCard({ provider, saved, platformKey }: { provider: ProviderId; saved?: ProviderKey; platformKey?: boolean }) {
  const name = s.providers[provider] ?? provider;
  const save = useSaveProviderKey(provider);
  const validate = useValidateProviderKey(provider);
  const remove = useDeleteProviderKey(provider);
  const [confirming, setConfirming] = useState(false);
  const form = useForm<{ apiKey: string }>({ defaultValues: { apiKey: '' } });
  const submit = form.handleSubmit(({ apiKey }) =>
    save.mutate(apiKey.trim(), {
      onSuccess: () => {
        form.reset();
        validate.reset();
      },
      onError: (error) => {
        const message = fieldErrors(error, ['apiKey'] as const).apiKey;
        if (message) form.setError('apiKey', { message });
      },
    }),
  );
  const verdict = validate.data as { valid: boolean; models?: string[]; error?: string } | undefined;
  const headingId = `pk-${provider}`;

  return (
    <section className="ap-card ap-stack" aria-labelledby={headingId}>
      <div className="ap-page-header">
        <div>
          <h2 id={headingId}>{name}</h2>
          <p className="ap-muted">
            {saved ? s.saved(saved.keyHint) : s.notSaved}
            {saved ? ` · ${saved.lastValidatedAt ? s.lastValidated(formatDateTime(saved.lastValidatedAt)) : s.never}` : ''}
            {saved?.lastUsedAt ? ` · ${s.lastUsed(formatDateTime(saved.lastUsedAt))}` : ''}
          </p>
          <p className="ap-muted">{platformKey ? s.platformKey : s.noPlatformKey}</p>
        </div>
        {saved ? (
          <div className="ap-actions">
            <Button busy={validate.isPending} onClick={() => validate.mutate()}>
              {validate.isPending ? s.validating : s.validate}
            </Button>
            <Button variant="ghost" aria-label={s.deleteLabel(name)} onClick={() => setConfirming(true)}>
              <Trash2 aria-hidden size={16} />
            </Button>
          </div>
        ) : null}
      </div>
      {verdict ? (
        <p className={verdict.valid ? 'ap-verdict ap-verdict--ok' : 'ap-verdict ap-verdict--bad'} role="status">
          {verdict.valid ? <CheckCircle2 aria-hidden size={16} /> : <XCircle aria-hidden size={16} />}
          {verdict.valid ? s.valid(verdict.models?.length ?? 0) : s.invalid(verdict.error ?? '')}
        </p>
      ) : null}
      <ErrorText error={validate.error} />
      <form className="ap-inline-form" noValidate onSubmit={submit}>
        <Field
          label={s.key(name)}
          type="password"
          autoComplete="off"
          spellCheck={false}
          hint={s.keyHint}
          error={form.formState.errors.apiKey?.message}
          {...form.register('apiKey', { required: `${s.key(name)} is required` })}
        />
        <Button type="submit" variant="primary" busy={save.isPending}>
          {saved ? s.replace : s.save}
        </Button>
      </form>
      {save.isSuccess ? (
        <p className="ap-muted" role="status">
          {s.savedNotice}
        </p>
      ) : null}
      {save.error && !fieldErrors(save.error, ['apiKey'] as const).apiKey ? <ErrorText error={save.error} /> : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={s.deleteTitle(name)}
        description={s.deleteBody}
        confirmLabel={s.delete}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              validate.reset();
            },
          })
        }
      />
    </section>
  );
}
