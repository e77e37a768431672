import { useMemo } from 'react';
import { CodeEditor } from '../../components/CodeEditor';
import type { CssRefusal } from './css-refusal';
import { s } from './strings';

/**
 * The custom CSS editor (the console's shared code editor, capped in height). The server's refusal is marked on its
 * rule and said under the editor with its line.
 */
export function CssEditor({ value, onChange, refusal, error }: { value: string; onChange(text: string): void; refusal: CssRefusal | null; error?: string }) {
  const mark = useMemo(() => (refusal ? { from: refusal.from, to: refusal.to, message: refusal.message } : null), [refusal]);
  return (
    <CodeEditor
      id="branding-css"
      label={s.branding.customCss}
      hint={s.branding.customCssHint}
      language="css"
      capped
      value={value}
      onChange={onChange}
      mark={mark}
      error={error ? (refusal ? s.branding.refusedOnLine(refusal.line, error.replace(/^(?:customCss|Custom CSS): /, '')) : error) : undefined}
    />
  );
}
