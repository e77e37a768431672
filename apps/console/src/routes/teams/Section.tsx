import type { ReactNode } from 'react';

/** A titled card of a screen. */
export function Section({ id, title, children, actions }: { id: string; title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="ap-card ap-stack" aria-labelledby={id}>
      <div className="ap-teams-section-header">
        <h2 id={id}>{title}</h2>
        {actions ? <div className="ap-actions">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

/** Why an action is disabled, shown beside it and tied to it for assistive technology. */
export function Reason({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="ap-muted ap-teams-reason">
      {children}
    </p>
  );
}
