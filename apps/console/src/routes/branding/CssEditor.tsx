import { useEffect, useRef, useState } from 'react';
import { Loading } from '../../components/States';
import type { CssEditorHandle } from './codemirror';
import type { CssRefusal } from './css-refusal';
import { s } from './strings';

/**
 * The custom CSS editor: CodeMirror 6, loaded on first use (its own chunk), inside a shadow root of its own
 * (see codemirror.ts). The server's refusal is marked on its rule and said under the editor with its line.
 */
export function CssEditor({ value, onChange, refusal, error }: { value: string; onChange(text: string): void; refusal: CssRefusal | null; error?: string }) {
  const host = useRef<HTMLDivElement>(null);
  const handle = useRef<CssEditorHandle | null>(null);
  const change = useRef(onChange);
  change.current = onChange;
  const initial = useRef(value);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    import('./codemirror')
      .then(({ createCssEditor }) => {
        if (cancelled || !host.current) return;
        const root = host.current.shadowRoot ?? host.current.attachShadow({ mode: 'open' });
        const parent = document.createElement('div');
        root.replaceChildren(parent);
        handle.current = createCssEditor(root, parent, { text: initial.current, label: s.branding.customCss, onChange: (text) => change.current(text) });
        setReady(true);
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      handle.current?.destroy();
      handle.current = null;
    };
  }, []);

  useEffect(() => {
    handle.current?.setText(value);
  }, [value, ready]);

  useEffect(() => {
    handle.current?.mark(refusal ? { from: refusal.from, to: refusal.to, message: refusal.message } : null);
  }, [refusal, ready]);

  return (
    <div className="ap-field">
      <span className="ap-br-label" id="branding-css-label">
        {s.branding.customCss}
      </span>
      <p className="ap-field__hint">{s.branding.customCssHint}</p>
      {failed ? (
        <textarea className="ap-code-input" aria-labelledby="branding-css-label" rows={8} value={value} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <>
          {ready ? null : <Loading label={s.branding.editorLoading} />}
          <div ref={host} className="ap-br-css" />
        </>
      )}
      {error ? (
        <p className="ap-field__error" role="alert">
          {refusal ? s.branding.refusedOnLine(refusal.line, error.replace(/^customCss: /, '')) : error}
        </p>
      ) : null}
    </div>
  );
}
