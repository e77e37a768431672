import { useForm } from 'react-hook-form';
import { useApplicationChoices } from '../../components/ApplicationScope';
import { Button } from '../../components/Button';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { ErrorText } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { t } from '../../lib/strings';
import { useCreateApiKey, type CreatedApiKey } from './queries';
import { s } from './strings';

type Values = { name: string; applicationId: string; rateLimit: string };

/** Create a key; the raw key is then shown once, copyable, until the owner says it is copied. */
export function CreateKeyDialog({ open, onOpenChange, defaultApplicationId, onCreated, created }: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  defaultApplicationId?: string;
  onCreated: (key: CreatedApiKey) => void;
  created: CreatedApiKey | null;
}) {
  const apps = useApplicationChoices();
  const create = useCreateApiKey();
  const form = useForm<Values>({ values: { name: 'Website', applicationId: defaultApplicationId ?? '', rateLimit: '60' } });
  const { errors } = form.formState;
  const submit = form.handleSubmit((v) =>
    create.mutate(
      { name: v.name.trim(), applicationId: v.applicationId || null, rateLimit: Number(v.rateLimit) },
      {
        onSuccess: onCreated,
        onError: (error) => {
          for (const [field, message] of Object.entries(fieldErrors(error, ['name', 'rateLimit', 'applicationId'] as const))) form.setError(field as keyof Values, { message: message as string });
        },
      },
    ),
  );

  if (created)
    return (
      <Dialog open={open} onOpenChange={onOpenChange} title={s.createdTitle} description={s.createdBody}>
        <div className="ap-field">
          <label htmlFor="raw-key">{s.rawKey}</label>
          <input id="raw-key" readOnly value={created.key} className="ap-code-input" onFocus={(e) => e.target.select()} />
        </div>
        <div className="ap-actions">
          <CopyButton value={created.key} />
          <Button variant="primary" onClick={() => onOpenChange(false)}>
            {s.done}
          </Button>
        </div>
      </Dialog>
    );

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={s.createTitle}>
      <form className="ap-stack" noValidate onSubmit={submit}>
        <Field label={s.name} error={errors.name?.message} {...form.register('name', { required: `${s.name} is required` })} />
        <div className="ap-field">
          <label htmlFor="key-app">{s.application}</label>
          <select id="key-app" className="ap-select" {...form.register('applicationId')}>
            <option value="">{s.allApplications}</option>
            {apps.data?.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        <Field
          label={s.rateLimit}
          type="number"
          min={10}
          max={10000}
          hint={s.rateLimitHint}
          error={errors.rateLimit?.message}
          {...form.register('rateLimit', { required: true, validate: (v) => (Number(v) >= 10 && Number(v) <= 10000) || s.rateLimitHint })}
        />
        {create.error && !Object.keys(fieldErrors(create.error, ['name', 'rateLimit', 'applicationId'] as const)).length ? <ErrorText error={create.error} /> : null}
        <div className="ap-actions">
          <Button type="submit" variant="primary" busy={create.isPending}>
            {t.create}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
