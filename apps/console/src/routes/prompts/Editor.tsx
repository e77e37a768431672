import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../components/Button';
import { Field, TextArea } from '../../components/Field';
import { ErrorText } from '../../components/States';
import { UnsavedChangesGuard } from '../../components/UnsavedChangesGuard';
import { ApiError, fieldErrors } from '../../lib/errors';
import { t } from '../../lib/strings';
import { useRender, useSaveTemplate, variablesOf, type PromptTemplate } from './queries';
import { s } from './strings';

/** Edits a template: the variables it holds, sample values, the server's render preview, save. */
export function Editor({ applicationId, template, onDone }: { applicationId?: string; template?: PromptTemplate; onDone: () => void }) {
  const save = useSaveTemplate(applicationId, template?.id);
  const render = useRender();
  const form = useForm<{ name: string; content: string }>({ defaultValues: { name: template?.name ?? '', content: template?.content ?? '' } });
  const [samples, setSamples] = useState<Record<string, string>>({});
  const { errors } = form.formState;
  const content = form.watch('content');
  const variables = variablesOf(content);
  const FIELDS = ['name', 'content'] as const;

  const submit = form.handleSubmit((values) =>
    save.mutate(
      { name: values.name.trim(), content: values.content },
      {
        onSuccess: onDone,
        onError: (error) => {
          for (const [field, message] of Object.entries(fieldErrors(error, FIELDS))) form.setError(field as 'name', { message: message as string });
        },
      },
    ),
  );
  const preview = () => render.mutate({ content, variables: Object.fromEntries(variables.filter((v) => samples[v] !== undefined && samples[v] !== '').map((v) => [v, samples[v]!])) });
  const sampleError = (name: string) => (render.error instanceof ApiError ? render.error.fieldMessage(`variables.${name}`) : undefined);
  const unplacedRender = render.error && !variables.some((v) => sampleError(v)) ? render.error : null;
  const unplaced = save.error && !Object.keys(fieldErrors(save.error, FIELDS)).length ? save.error : null;

  return (
    <section className="ap-card ap-stack" aria-labelledby="pt-editor">
      <div className="ap-page-header">
        <h2 id="pt-editor">{template ? s.editorEdit(template.name ?? '') : s.editorNew}</h2>
        <Button variant="ghost" onClick={onDone}>
          {s.close}
        </Button>
      </div>
      <form className="ap-stack" noValidate onSubmit={submit}>
        <UnsavedChangesGuard dirty={form.formState.isDirty && !save.isSuccess} />
        <Field label={s.name} error={errors.name?.message} {...form.register('name', { required: `${s.name} is required` })} />
        <TextArea label={s.content} hint={s.contentHint} rows={6} spellCheck={false} error={errors.content?.message} {...form.register('content', { required: `${s.content} is required` })} />
        <div className="ap-stack">
          <h3>{s.variablesFound}</h3>
          {variables.length ? (
            <ul className="ap-pt-vars" aria-label={s.variablesFound}>
              {variables.map((v) => (
                <li key={v}>
                  <code>{v}</code>
                </li>
              ))}
            </ul>
          ) : (
            <p className="ap-muted">{s.noVariables}</p>
          )}
          {variables.map((v) => (
            <Field key={v} label={s.sample(v)} value={samples[v] ?? ''} error={sampleError(v)} onChange={(e) => setSamples({ ...samples, [v]: e.target.value })} />
          ))}
        </div>
        <ErrorText error={unplacedRender} />
        <ErrorText error={unplaced} />
        <div className="ap-actions">
          <Button onClick={preview} busy={render.isPending} disabled={!content}>
            {render.isPending ? s.rendering : s.preview}
          </Button>
          <Button type="submit" variant="primary" busy={save.isPending}>
            {save.isPending ? t.saving : template ? t.save : t.create}
          </Button>
        </div>
      </form>
      {render.data && !render.error ? (
        <div className="ap-stack">
          <h3>{s.previewTitle}</h3>
          <pre className="ap-pt-preview" aria-label={s.previewTitle}>
            {render.data.rendered}
          </pre>
        </div>
      ) : null}
    </section>
  );
}
