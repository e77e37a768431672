import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { javascriptLanguage } from '@codemirror/lang-javascript';
import { jsonLanguage } from '@codemirror/lang-json';
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, highlightSpecialChars, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';

export interface CodeMirrorProps {
  value: string;
  onChange?: (value: string) => void;
  language: 'javascript' | 'json';
  readOnly?: boolean;
  /** The accessible name (the visible label outside cannot be referenced from inside the shadow root). */
  label: string;
  /** The hint and the error, read after the name. */
  description?: string;
  invalid?: boolean;
}

/**
 * The editor itself (its own lazy chunk). CodeMirror styles itself through style-mod, which writes a `<style>`
 * element into a document (refused by the console's CSP, `style-src 'self'` without a nonce) but constructed style
 * sheets (`adoptedStyleSheets`, CSSOM, not subject to that CSP) into a shadow root: so the editor lives in one.
 * CSS custom properties cross the shadow boundary, so the console's theme variables still apply.
 */
const theme = EditorView.theme({
  '&': { border: '1px solid var(--ap-color-border)', borderRadius: 'var(--ap-layout-border-radius)', fontSize: '0.9em' },
  '&.cm-focused': { outline: '2px solid var(--ap-color-primary)', outlineOffset: '1px' },
  // Wrapped lines and no height cap: the editor never becomes a scrolling region of its own (keyboard users scroll the page).
  '.cm-scroller': { fontFamily: 'var(--ap-font-mono)', minHeight: '8em' },
  '.cm-gutters': { color: 'var(--ap-color-text-muted)', backgroundColor: 'var(--ap-color-surface)' },
  '.cm-activeLineGutter': { color: 'var(--ap-color-text)' },
});

export default function CodeMirror({ value, onChange, language, readOnly, label, description, invalid }: CodeMirrorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const attributes = useRef(new Compartment());
  const changed = useRef(onChange);
  changed.current = onChange;

  const contentAttributes = () =>
    EditorView.contentAttributes.of({
      'aria-label': label,
      ...(description ? { 'aria-description': description } : {}),
      ...(invalid ? { 'aria-invalid': 'true' } : {}),
      ...(readOnly ? { 'aria-readonly': 'true' } : {}),
    });

  useEffect(() => {
    const shadow = host.current!.shadowRoot ?? host.current!.attachShadow({ mode: 'open' });
    const mount = document.createElement('div');
    shadow.replaceChildren(mount);
    const editor = new EditorView({
      root: shadow,
      parent: mount,
      state: EditorState.create({
        doc: value,
        extensions: [
          // A lean setup (no autocompletion, search panel or linting): what editing a short script needs.
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightSpecialChars(),
          history(),
          drawSelection(),
          indentOnInput(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          bracketMatching(),
          highlightActiveLine(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          theme,
          EditorView.lineWrapping,
          language === 'json' ? jsonLanguage : javascriptLanguage,
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
  }, [label, description, invalid, readOnly]);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  return <div ref={host} className="ap-pl-editor" />;
}
