import { AlertTriangle, Inbox, Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError, NetworkError } from '../lib/errors';
import { t } from '../lib/strings';
import { usePayments } from '../lib/payments';
import { Button } from './Button';

/** Loading: a spinner announced politely. */
export function Loading({ label = t.loading }: { label?: string }) {
  return (
    <div className="ap-state" role="status" aria-live="polite">
      <Loader2 aria-hidden className="ap-spin" size={20} />
      <span>{label}</span>
    </div>
  );
}

/** Nothing yet: what this list is for and the first action. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="ap-state ap-state--empty">
      <Inbox aria-hidden size={28} />
      <h2>{title}</h2>
      {children ? <div className="ap-muted">{children}</div> : null}
      {action}
    </div>
  );
}

/** What a failure means to the user, from the API's status (CONSOLE.md "Behaviour people expect"). */
export function describeError(error: unknown): { title: string; message: string } {
  if (error instanceof NetworkError) return { title: t.offline, message: '' };
  if (error instanceof ApiError) {
    // The API's 402 says what was hit and the one thing that lifts it, true for this account: shown as it is.
    if (error.status === 402) return { title: t.paymentRequired, message: error.message };
    if (error.status === 403) return { title: t.forbidden, message: error.message };
    if (error.status === 404) return { title: t.notFound, message: error.message };
    return { title: error.message, message: '' };
  }
  return { title: error instanceof Error ? error.message : String(error), message: '' };
}

/** Under a 402, where the install takes payments: a link to the plans on the billing screen. */
function BillingLink({ error }: { error: unknown }) {
  const payments = usePayments();
  if (!(error instanceof ApiError) || error.status !== 402 || payments !== true) return null;
  return (
    <Link className="ap-billing-link" to="/billing">
      {t.paymentRequiredLink}
    </Link>
  );
}

/** A failed load, with a retry. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { title, message } = describeError(error);
  return (
    <div className="ap-state ap-state--error" role="alert">
      <AlertTriangle aria-hidden size={24} />
      <p className="ap-state__title">{title}</p>
      {message ? <p className="ap-muted">{message}</p> : null}
      <BillingLink error={error} />
      {onRetry ? <Button onClick={onRetry}>{t.retry}</Button> : null}
    </div>
  );
}

/** A form's or action's failure, inline; nothing when there is no error. */
export function ErrorText({ error }: { error: unknown }) {
  if (!error) return null;
  const { title, message } = describeError(error);
  return (
    <p className="ap-error-text" role="alert">
      {title}
      {message ? ` ${message}` : ''} <BillingLink error={error} />
    </p>
  );
}
