import { createContext, useContext, type ReactNode } from 'react';

/**
 * The level of a screen's title: 1 on a workspace page; 2 inside an application-level page, whose h1 is the
 * application's name (its layout provides 2), so a screen composed into an application's tab needs no change.
 */
export const TitleLevel = createContext<1 | 2>(1);

/** A screen's title (its one h1, or an h2 under an application's name) and its main actions. */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  const Heading = useContext(TitleLevel) === 2 ? 'h2' : 'h1';
  return (
    <header className="ap-page-header">
      <div>
        <Heading>{title}</Heading>
        {description ? <p className="ap-muted">{description}</p> : null}
      </div>
      {actions ? <div className="ap-actions">{actions}</div> : null}
    </header>
  );
}
