import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { css } from '@codemirror/lang-css';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { setDiagnostics } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';

export interface CssEditorHandle {
  /** Marks the refused range (or clears the marks with null). */
  mark(range: { from: number; to: number; message: string } | null): void;
  /** Replaces the text when it changed outside the editor (another application chosen). */
  setText(text: string): void;
  destroy(): void;
}

const theme = EditorView.theme({
  '&': { border: '1px solid #6b7280', borderRadius: '6px', backgroundColor: '#fff', color: '#111827', fontSize: '14px' },
  '&.cm-focused': { outline: '2px solid #2563eb', outlineOffset: '2px' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', minHeight: '160px' },
  '.cm-gutters': { backgroundColor: '#f3f4f6', color: '#374151', borderRight: '1px solid #d1d5db' },
  '.cm-scroller': { maxHeight: '320px', overflow: 'auto' },
});

/**
 * CodeMirror 6 in the given shadow root: style-mod adopts a constructed stylesheet there (the console's CSP,
 * `style-src 'self'`, refuses the `<style>` element it would add to a document).
 */
export function createCssEditor(root: ShadowRoot, parent: HTMLElement, options: { text: string; label: string; onChange(text: string): void }): CssEditorHandle {
  const view = new EditorView({
    root,
    parent,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        lineNumbers(),
        history(),
        highlightActiveLine(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        css(),
        syntaxHighlighting(defaultHighlightStyle),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': options.label }),
        theme,
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
    destroy: () => view.destroy(),
  };
}
