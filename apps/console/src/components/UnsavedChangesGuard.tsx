import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { t } from '../lib/strings';
import { Button } from './Button';
import { Dialog } from './Dialog';

/**
 * Asks before edits that are not saved are lost: a navigation inside the console (a link, the back button) waits
 * for "Leave without saving" or "Stay", and closing or reloading the tab gets the browser's own question.
 * Render it inside a form with `dirty` from the form's state (react-hook-form's `formState.isDirty`, or a
 * comparison with what was loaded); a save that succeeds makes `dirty` false before it navigates.
 */
export function UnsavedChangesGuard({ dirty }: { dirty: boolean }) {
  // Only leaving the page counts: a change of the query string (a tab, a filter) keeps the form mounted.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  // A blocker left over from a form that became clean (saved meanwhile) lets the navigation go on.
  useEffect(() => {
    if (blocker.state === 'blocked' && !dirty) blocker.proceed();
  }, [blocker, dirty]);

  const open = blocker.state === 'blocked';
  return (
    <Dialog open={open} onOpenChange={(next) => !next && blocker.state === 'blocked' && blocker.reset()} title={t.unsavedTitle} description={t.unsavedBody}>
      <div className="ap-actions">
        <Button onClick={() => blocker.state === 'blocked' && blocker.reset()}>{t.unsavedStay}</Button>
        <Button variant="danger" onClick={() => blocker.state === 'blocked' && blocker.proceed()}>
          {t.unsavedLeave}
        </Button>
      </div>
    </Dialog>
  );
}
