import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting, type Language } from '@codemirror/language';
import { setDiagnostics } from '@codemirror/lint';
import { Compartment, EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, highlightSpecialChars, keymap, lineNumbers } from '@codemirror/view';

/** The languages the console edits, each loaded with the first editor that needs it. */
const LANGUAGES: Record<EditorLanguage, () => Promise<Language | null>> = {
  // Prose (a system prompt): no grammar to load.
  text: async () => null,
  javascript: () => import('@codemirror/lang-javascript').then((m) => m.javascriptLanguage),
  json: () => import('@codemirror/lang-json').then((m) => m.jsonLanguage),
  css: () => import('@codemirror/lang-css').then((m) => m.cssLanguage),
};

export type EditorLanguage = 'text' | 'javascript' | 'json' | 'css';

export interface EditorAttributes {
  /** The accessible name (the visible label outside cannot be referenced from inside the shadow root). */
  label: string;
  /** The hint and the error, read after the name. */
  description?: string;
  invalid?: boolean;
  readOnly?: boolean;
}

export interface EditorHandle {
  /** Marks a range as refused (or clears the marks with null). */
  mark(range: { from: number; to: number; message: string } | null): void;
  /** Replaces the text when it changed outside the editor. */
  setText(text: string): void;
  setAttributes(attributes: EditorAttributes): void;
  destroy(): void;
}

const theme = EditorView.theme({
  '&': { border: '1px solid var(--ap-color-border)', borderRadius: 'var(--ap-layout-border-radius)', fontSize: '0.9em' },
  '&.cm-focused': { outline: '2px solid var(--ap-color-primary)', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'var(--ap-font-mono)', minHeight: '8em' },
  '.cm-gutters': { color: 'var(--ap-color-text-muted)', backgroundColor: 'var(--ap-color-surface)' },
  '.cm-activeLineGutter': { color: 'var(--ap-color-text)' },
});
// A capped editor scrolls inside past 320px (long stylesheets); otherwise it grows with its text and the page scrolls.
const capped = EditorView.theme({ '.cm-scroller': { maxHeight: '320px', overflow: 'auto' } });

function attributeExtension({ label, description, invalid, readOnly }: EditorAttributes) {
  return [
    EditorView.contentAttributes.of({
      'aria-label': label,
      ...(description ? { 'aria-description': description } : {}),
      ...(invalid ? { 'aria-invalid': 'true' } : {}),
      ...(readOnly ? { 'aria-readonly': 'true' } : {}),
    }),
    EditorState.readOnly.of(!!readOnly),
  ];
}

/**
 * CodeMirror 6 in the given shadow root (this module is its own lazy chunk). CodeMirror styles itself through
 * style-mod, which writes a `<style>` element into a document (refused by the console's CSP, `style-src 'self'`
 * without a nonce) but adopts constructed style sheets (`adoptedStyleSheets`, CSSOM, not subject to that CSP) into a
 * shadow root: so the editor lives in one. CSS custom properties cross the shadow boundary, so the console's theme
 * variables still apply.
 */
export async function createEditor(
  root: ShadowRoot,
  parent: HTMLElement,
  options: { text: string; language: EditorLanguage; capped?: boolean; attributes: EditorAttributes; onChange(text: string): void },
): Promise<EditorHandle> {
  const language = await LANGUAGES[options.language]();
  const attributes = new Compartment();
  const view = new EditorView({
    root,
    parent,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        // A lean setup (no autocompletion or search panel): what editing a short script, schema or stylesheet needs.
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
        options.capped ? capped : [],
        EditorView.lineWrapping,
        language ?? [],
        attributes.of(attributeExtension(options.attributes)),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    mark(range) {
      const length = view.state.doc.length;
      const diagnostics = range ? [{ from: Math.min(range.from, length), to: Math.min(range.to, length), severity: 'error' as const, message: range.message }] : [];
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
    setText(text) {
      if (text !== view.state.doc.toString()) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    setAttributes(next) {
      view.dispatch({ effects: attributes.reconfigure(attributeExtension(next)) });
    },
    destroy: () => view.destroy(),
  };
}
