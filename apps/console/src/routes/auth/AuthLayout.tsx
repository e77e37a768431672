import type { ReactNode } from 'react';
import { t } from '../../lib/strings';

/** The signed-out frame: one card, centred. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="ap-auth">
      <div className="ap-auth__card">
        <p className="ap-brand">{t.product}</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
