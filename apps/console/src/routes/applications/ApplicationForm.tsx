import { useForm } from 'react-hook-form';
import { Button } from '../../components/Button';
import { Field, TextArea } from '../../components/Field';
import { ErrorText } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { t } from '../../lib/strings';
import { toApplicationForm, toApplicationInput } from './form';
import { useSaveApplication, useScopeTeam, type Application } from './queries';
import { s } from './strings';

type Values = ReturnType<typeof toApplicationForm>;
const FIELDS = ['name', 'description', 'slug', 'allowedOrigins'] as const;

/** Create or edit an application; the API's 400s and 409s land on the field they name. */
export function ApplicationForm({ application, onDone }: { application?: Application; onDone: (saved: Application) => void }) {
  const team = useScopeTeam();
  const inTeam = !application && team?.data ? team.data : null;
  const save = useSaveApplication(application?.id, inTeam?.id);
  const reason = inTeam && inTeam.role !== 'owner' && inTeam.role !== 'admin' ? s.teamRoleReason(inTeam.name, inTeam.role!) : null;
  const form = useForm<Values>({ defaultValues: toApplicationForm(application) });
  const { errors } = form.formState;
  const submit = form.handleSubmit((values) =>
    save.mutate(toApplicationInput(values), {
      onSuccess: onDone,
      onError: (error) => {
        for (const [field, message] of Object.entries(fieldErrors(error, FIELDS))) form.setError(field as keyof Values, { message: message as string });
      },
    }),
  );
  const unplaced = save.error && !Object.keys(fieldErrors(save.error, FIELDS)).length ? save.error : null;
  return (
    <form onSubmit={submit} noValidate className="ap-stack">
      <Field label={s.name} error={errors.name?.message} {...form.register('name', { required: `${s.name} is required`, maxLength: { value: 100, message: 'At most 100 characters' } })} />
      <TextArea label={s.descriptionField} rows={2} error={errors.description?.message} {...form.register('description')} />
      <Field label={s.slug} hint={s.slugHint} error={errors.slug?.message} {...form.register('slug')} />
      <TextArea label={s.origins} hint={s.originsHint} rows={3} error={errors.allowedOrigins?.message} {...form.register('allowedOrigins')} />
      {inTeam ? (
        <p id="application-team" className="ap-muted">
          {reason ?? s.inTeam(inTeam.name)}
        </p>
      ) : null}
      <ErrorText error={!application && team?.isError ? team.error : unplaced} />
      <div className="ap-actions">
        <Button
          type="submit"
          variant="primary"
          busy={save.isPending || (!application && !!team?.isPending)}
          disabled={!!reason || (!application && !!team?.isError)}
          aria-describedby={inTeam ? 'application-team' : undefined}
        >
          {save.isPending ? t.saving : application ? t.save : t.create}
        </Button>
      </div>
    </form>
  );
}
