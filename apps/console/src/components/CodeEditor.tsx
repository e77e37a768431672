import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { EditorHandle, EditorLanguage } from './codemirror';
import { Loading } from './States';

export interface CodeEditorProps {
  /** Unique on the page: the ids of the label, hint and error derive from it. */
  id: string;
  label: string;
  hint?: string;
  /** The API's (or the form's) message for this editor, shown under it and announced. */
  error?: ReactNode;
  value: string;
  onChange?: (text: string) => void;
  language: EditorLanguage;
  readOnly?: boolean;
  /** A range to mark as refused (the server's refusal on its rule), or null. */
  mark?: { from: number; to: number; message: string } | null;
  /** Scroll inside past 320px instead of growing with the text. */
  capped?: boolean;
}

/**
 * The console's code editor: CodeMirror 6, loaded with the first editor shown (its own chunk, `codemirror.ts`), in
 * a shadow root of its own (the CSP, see there). A labelled field with its hint and error; a plain text area if the
 * editor's chunk cannot load.
 */
export function CodeEditor({ id, label, hint, error, value, onChange, language, readOnly, mark, capped }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const handle = useRef<EditorHandle | null>(null);
  const change = useRef(onChange);
  change.current = onChange;
  const initial = useRef(value);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const description = [hint, typeof error === 'string' ? error : undefined].filter(Boolean).join(' ') || undefined;
  const attributes = { label, description, invalid: !!error, readOnly };

  useEffect(() => {
    let cancelled = false;
    import('./codemirror')
      .then(async ({ createEditor }) => {
        if (cancelled || !host.current) return;
        const root = host.current.shadowRoot ?? host.current.attachShadow({ mode: 'open' });
        const parent = document.createElement('div');
        root.replaceChildren(parent);
        const editor = await createEditor(root, parent, { text: initial.current, language, capped, attributes, onChange: (text) => change.current?.(text) });
        if (cancelled) return editor.destroy();
        handle.current = editor;
        setReady(true);
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      handle.current?.destroy();
      handle.current = null;
    };
    // The document is the editor's own after creation; a new value from outside replaces it below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    handle.current?.setText(value);
  }, [value, ready]);

  useEffect(() => {
    handle.current?.setAttributes(attributes);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [label, description, attributes.invalid, readOnly, ready]);

  useEffect(() => {
    handle.current?.mark(mark ?? null);
  }, [mark, ready]);

  return (
    <div className="ap-field">
      <span className="ap-code-editor__label" id={`${id}-label`} aria-hidden={failed ? undefined : true}>
        {label}
      </span>
      {hint ? (
        <p className="ap-field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {failed ? (
        <textarea
          className="ap-code-input"
          aria-labelledby={`${id}-label`}
          aria-describedby={[hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined}
          aria-invalid={error ? true : undefined}
          rows={8}
          value={value}
          readOnly={readOnly}
          onChange={(e) => onChange?.(e.target.value)}
        />
      ) : (
        <>
          {ready ? null : <Loading label="Loading the editor…" />}
          <div ref={host} className="ap-code-editor" />
        </>
      )}
      {error ? (
        <p className="ap-field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
