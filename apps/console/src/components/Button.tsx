import type { ButtonHTMLAttributes } from 'react';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

/** The console's button; `busy` disables it and says so to assistive technology. */
export function Button({ variant = 'secondary', busy, className, disabled, ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; busy?: boolean }) {
  return <button type="button" {...rest} className={`ap-button ap-button--${variant} ${className ?? ''}`} disabled={disabled || busy} aria-busy={busy || undefined} />;
}
