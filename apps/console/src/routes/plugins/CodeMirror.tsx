import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import { Compartment, EditorState } from '@codemirror/state';
import { basicSetup, EditorView } from 'codemirror';
import { useEffect, useRef } from 'react';

export interface CodeMirrorProps {
  value: string;
  onChange?: (value: string) => void;
  language: 'javascript' | 'json';
  readOnly?: boolean;
  labelledBy: string;
  describedBy?: string;
  invalid?: boolean;
}

/**
 * The editor itself (its own lazy chunk). Its styles go through style-mod, which uses constructed style sheets
 * (`adoptedStyleSheets`) in browsers that have them, so the console's CSP (`style-src 'self'`) does not refuse them.
 */
const theme = EditorView.theme({
  '&': { border: '1px solid var(--ap-color-border)', borderRadius: 'var(--ap-layout-border-radius)', fontSize: '0.9em' },
  '&.cm-focused': { outline: '2px solid var(--ap-color-primary)', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'var(--ap-font-mono)', minHeight: '8em', maxHeight: '28em' },
  '.cm-gutters': { color: 'var(--ap-color-text-muted)', backgroundColor: 'var(--ap-color-surface)' },
  '.cm-activeLineGutter': { color: 'var(--ap-color-text)' },
});

export default function CodeMirror({ value, onChange, language, readOnly, labelledBy, describedBy, invalid }: CodeMirrorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const attributes = useRef(new Compartment());
  const changed = useRef(onChange);
  changed.current = onChange;

  const contentAttributes = () =>
    EditorView.contentAttributes.of({
      'aria-labelledby': labelledBy,
      ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      ...(invalid ? { 'aria-invalid': 'true' } : {}),
      ...(readOnly ? { 'aria-readonly': 'true' } : {}),
    });

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          theme,
          language === 'json' ? json() : javascript(),
          EditorState.readOnly.of(!!readOnly),
          attributes.current.of(contentAttributes()),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current?.(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
    // The document is the editor's own after creation; a new value from outside replaces it below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    view.current?.dispatch({ effects: attributes.current.reconfigure(contentAttributes()) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [labelledBy, describedBy, invalid, readOnly]);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  return <div ref={host} className="ap-pl-editor" />;
}
