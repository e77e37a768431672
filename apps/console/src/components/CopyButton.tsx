import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { t } from '../lib/strings';
import { Button } from './Button';

/** Copies a value to the clipboard and says so. */
export function CopyButton({ value, label = t.copy }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
    >
      {copied ? <Check aria-hidden size={16} /> : <Copy aria-hidden size={16} />}
      <span aria-live="polite">{copied ? t.copied : label}</span>
    </Button>
  );
}
