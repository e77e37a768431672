import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/Button';
import { Field, TextArea } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { ErrorText } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { useSubmit } from './queries';
import { categoryName, PLUGIN_CATEGORIES, PRESETS, s, THEME_CATEGORIES } from './strings';

const MAX_PACKAGE = 512 * 1024;
const FIELDS = ['package', 'name', 'slug', 'version', 'displayName', 'description', 'author', 'homepage', 'category', 'price', 'changelog', 'defaultStyles', 'manifest.extend'] as const;

interface Values {
  name: string;
  slug: string;
  version: string;
  displayName: string;
  description: string;
  author: string;
  homepage: string;
  category: string;
  isPaid: boolean;
  price: string;
  changelog: string;
  extend: string;
  defaultStyles: string;
}

/** The file's bytes as base64 (the submission's `package`), read by the browser's own FileReader. */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/** Submit a plugin (its ZIP) or a theme (styles over a preset) for review; the API's refusals land on their field. */
export default function Submit() {
  const [kind, setKind] = useState<'plugin' | 'theme'>('plugin');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState('');
  const submit = useSubmit();
  const navigate = useNavigate();
  const form = useForm<Values>({
    defaultValues: { name: '', slug: '', version: '1.0.0', displayName: '', description: '', author: '', homepage: '', category: '', isPaid: false, price: '', changelog: '', extend: 'default', defaultStyles: '{\n  "colors": { "primary": "#0f766e" }\n}' },
  });
  const { errors } = form.formState;
  const isPaid = form.watch('isPaid');
  const categories = kind === 'plugin' ? PLUGIN_CATEGORIES : THEME_CATEGORIES;

  const onSubmit = form.handleSubmit(async (v) => {
    setFileError('');
    const body: Record<string, unknown> = { name: v.name.trim(), slug: (v.slug.trim() || v.name.trim()), version: v.version.trim() };
    for (const f of ['displayName', 'description', 'author', 'homepage', 'changelog'] as const) if (v[f].trim()) body[f] = v[f].trim();
    if (v.category) body.category = v.category;
    if (v.isPaid) {
      body.isPaid = true;
      body.price = Number(v.price);
    }
    if (kind === 'plugin') {
      if (!file) return setFileError(s.packageRequired);
      if (file.size > MAX_PACKAGE) return setFileError(s.packageTooLarge);
      body.package = await base64Of(file);
    } else {
      let styles: unknown;
      try {
        styles = JSON.parse(v.defaultStyles || '{}');
      } catch {
        return form.setError('defaultStyles', { message: s.invalidJson });
      }
      body.manifest = { extend: v.extend };
      body.defaultStyles = styles;
    }
    submit.mutate(
      { kind, body },
      {
        onSuccess: () => navigate('/market/submissions', { state: { submitted: s.submitted(String(body.name)) } }),
        onError: (error) => {
          const placed = fieldErrors(error, FIELDS);
          for (const [field, message] of Object.entries(placed)) {
            if (field === 'package') setFileError(message as string);
            else if (field === 'manifest.extend') form.setError('extend', { message: message as string });
            else form.setError(field as keyof Values, { message: message as string });
          }
        },
      },
    );
  });
  const unplaced = submit.error && !Object.keys(fieldErrors(submit.error, FIELDS)).length ? submit.error : null;
  const required = (label: string) => ({ required: s.required(label) });

  return (
    <>
      <Link className="ap-button ap-button--ghost" to="/market">
        <ArrowLeft aria-hidden size={16} />
        {s.back}
      </Link>
      <PageHeader title={s.submitTitle} description={s.submitDescription} />
      <form onSubmit={onSubmit} noValidate className="ap-stack ap-card ap-mk-form">
        <fieldset className="ap-mk-fieldset">
          <legend>{s.kind}</legend>
          {(['plugin', 'theme'] as const).map((k) => (
            <label key={k} className="ap-mk-radio">
              <input
                type="radio"
                name="kind"
                value={k}
                checked={kind === k}
                onChange={() => {
                  setKind(k);
                  form.setValue('category', '');
                  submit.reset();
                }}
              />
              {s.kindOptions[k]}
            </label>
          ))}
        </fieldset>
        {kind === 'plugin' ? (
          <div className="ap-field">
            <label htmlFor="mk-package">{s.fields.package}</label>
            <input
              id="mk-package"
              type="file"
              accept=".zip,application/zip"
              aria-invalid={fileError ? true : undefined}
              aria-describedby={`mk-package-hint${fileError ? ' mk-package-error' : ''}`}
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setFileError('');
              }}
            />
            <p className="ap-field__hint" id="mk-package-hint">
              {s.hints.package}
            </p>
            {fileError ? (
              <p className="ap-field__error" id="mk-package-error" role="alert">
                {fileError}
              </p>
            ) : null}
          </div>
        ) : null}
        <Field label={s.fields.name} hint={s.hints.name} error={errors.name?.message} {...form.register('name', required(s.fields.name))} />
        <Field label={s.fields.slug} hint={s.hints.slug} error={errors.slug?.message} {...form.register('slug')} />
        <Field label={s.fields.version} hint={s.hints.version} error={errors.version?.message} {...form.register('version', required(s.fields.version))} />
        <Field label={s.fields.displayName} error={errors.displayName?.message} {...form.register('displayName')} />
        <TextArea label={s.fields.description} rows={3} error={errors.description?.message} {...form.register('description')} />
        <Field label={s.fields.author} error={errors.author?.message} {...form.register('author')} />
        <Field label={s.fields.homepage} type="url" error={errors.homepage?.message} {...form.register('homepage')} />
        <div className="ap-field">
          <label htmlFor="mk-submit-category">{s.fields.category}</label>
          <select id="mk-submit-category" className="ap-select" {...form.register('category')}>
            <option value="">—</option>
            {categories.map((c) => (
              <option key={c} value={c}>
                {categoryName(c)}
              </option>
            ))}
          </select>
          {errors.category ? <p className="ap-field__error" role="alert">{errors.category.message}</p> : null}
        </div>
        {kind === 'theme' ? (
          <>
            <div className="ap-field">
              <label htmlFor="mk-extend">{s.fields.extend}</label>
              <select id="mk-extend" className="ap-select" {...form.register('extend')}>
                {PRESETS.map((p) => (
                  <option key={p} value={p}>
                    {s.presets[p]}
                  </option>
                ))}
              </select>
              {errors.extend ? <p className="ap-field__error" role="alert">{errors.extend.message}</p> : null}
            </div>
            <TextArea label={s.fields.defaultStyles} hint={s.hints.defaultStyles} rows={6} className="ap-code-input" spellCheck={false} error={errors.defaultStyles?.message} {...form.register('defaultStyles')} />
          </>
        ) : null}
        <TextArea label={s.fields.changelog} rows={2} error={errors.changelog?.message} {...form.register('changelog')} />
        <label className="ap-mk-radio">
          <input type="checkbox" {...form.register('isPaid')} />
          {s.fields.isPaid}
        </label>
        {isPaid ? <Field label={s.fields.price} type="number" min="0.5" step="0.01" inputMode="decimal" error={errors.price?.message} {...form.register('price', required(s.fields.price))} /> : null}
        <ErrorText error={unplaced} />
        <div className="ap-actions">
          <Button type="submit" variant="primary" busy={submit.isPending}>
            {submit.isPending ? s.submitting : s.submitButton}
          </Button>
        </div>
      </form>
    </>
  );
}
