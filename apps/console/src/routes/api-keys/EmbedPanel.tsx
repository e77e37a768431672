import { Link } from 'react-router';
import { CopyButton } from '../../components/CopyButton';
import { WidgetPreview } from '../../components/WidgetPreview';
import { ErrorText, Loading } from '../../components/States';
import { ApiError } from '../../lib/errors';
import { useApiKeys, useWidgetPreview, widgetSnippet, type CreatedApiKey } from './queries';
import { s } from './strings';

interface AppChoice {
  id?: string;
  name?: string;
  allowedOrigins?: string[];
}

/**
 * The widget snippet for an application, its allowed origins, and a live preview: the real widget in a
 * sandboxed frame (scripts only, no same-origin, so it can reach nothing of the console), chatting for
 * real through a preview session the API issues for one of the application's keys.
 */
export function EmbedPanel({ apps, appId, onAppChange, created }: { apps: AppChoice[]; appId: string; onAppChange: (id: string) => void; created: CreatedApiKey | null }) {
  const app = apps.find((a) => a.id === appId);
  if (!app) return <p className="ap-muted">{s.noApplication}</p>;
  const origin = window.location.origin;
  const previewKey = created && (created.applicationId === app.id || created.applicationId === null) ? created.key : null;
  const snippet = widgetSnippet(origin, app.id!, previewKey ?? s.keyPlaceholder);
  return <EmbedBody app={app} apps={apps} appId={appId} onAppChange={onAppChange} snippet={snippet} rawKeyShown={!!previewKey} />;
}

function EmbedBody({ app, apps, appId, onAppChange, snippet, rawKeyShown }: { app: AppChoice; apps: AppChoice[]; appId: string; onAppChange: (id: string) => void; snippet: string; rawKeyShown: boolean }) {
  const keys = useApiKeys();
  // The active keys that can serve this application: a change among them asks for a new session.
  const covering = (keys.data ?? []).filter((k) => k.isActive && (k.applicationId === app.id || k.applicationId === null)).map((k) => k.id).join(',');
  const session = useWidgetPreview(app.id!, covering, !keys.isPending);
  const noKey = session.error instanceof ApiError && session.error.status === 409;
  return (
    <section className="ap-card ap-stack" aria-labelledby="embed-title">
      <h2 id="embed-title">{s.embedTitle}</h2>
      <div className="ap-field">
        <label htmlFor="embed-app">{s.application}</label>
        <select id="embed-app" className="ap-select" value={appId} onChange={(e) => onAppChange(e.target.value)}>
          {apps.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </div>
      <p>{s.embedBody}</p>
      {app.allowedOrigins?.length ? (
        <ul className="ap-origins">
          {app.allowedOrigins.map((o) => (
            <li key={o}>
              <code>{o}</code>
            </li>
          ))}
        </ul>
      ) : (
        <p className="ap-notice">{s.noOrigins}</p>
      )}
      <p>
        <Link to="/applications">{s.editOrigins}</Link>
      </p>
      <div className="ap-field">
        <label htmlFor="embed-snippet">{s.snippet}</label>
        <textarea id="embed-snippet" readOnly rows={3} value={snippet} className="ap-code-input" onFocus={(e) => e.target.select()} />
      </div>
      {!rawKeyShown ? <p className="ap-muted">{s.keyNote}</p> : null}
      <div className="ap-actions">
        <CopyButton value={snippet} />
      </div>
      <h3>{s.previewTitle}</h3>
      <p className="ap-muted">{s.previewBody}</p>
      {session.data ? (
        <>
          <p className="ap-muted">{s.previewKey(session.data.key?.name ?? '', session.data.key?.keyHint ?? '')}</p>
          <WidgetPreview appId={app.id!} apiKey={session.data.token!} title={s.previewFrame} widgetTitle={session.data.title || app.name} />
        </>
      ) : noKey ? (
        <p className="ap-muted">{s.previewNeedsKey}</p>
      ) : session.isError ? (
        <ErrorText error={session.error} />
      ) : (
        <Loading />
      )}
    </section>
  );
}
