import type { ReactNode } from 'react';

/** A screen's title (its one h1) and its main actions. */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="ap-page-header">
      <div>
        <h1>{title}</h1>
        {description ? <p className="ap-muted">{description}</p> : null}
      </div>
      {actions ? <div className="ap-actions">{actions}</div> : null}
    </header>
  );
}
