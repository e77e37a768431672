import { lazy, Suspense } from 'react';
import { Loading } from '../../components/States';
import type { CodeMirrorProps } from './CodeMirror';
import { s } from './strings';

// CodeMirror is loaded with the first editor shown, not with the area.
const CodeMirror = lazy(() => import('./CodeMirror'));

/** A labelled code editor (CodeMirror 6, loaded on demand) with its hint and the API's error under it. */
export function CodeEditor({ id, label, hint, error, ...rest }: Omit<CodeMirrorProps, 'label' | 'description' | 'invalid'> & { id: string; label: string; hint?: string; error?: string }) {
  const description = [hint, error].filter(Boolean).join(' ') || undefined;
  return (
    <div className="ap-field">
      <span className="ap-pl-label" id={`${id}-label`} aria-hidden>
        {label}
      </span>
      <Suspense fallback={<Loading label={s.editorLoading} />}>
        <CodeMirror {...rest} label={label} description={description} invalid={!!error} />
      </Suspense>
      {hint ? (
        <p className="ap-field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="ap-field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
