import { Link } from 'react-router';
import { CopyButton } from '../../components/CopyButton';
import { WidgetPreview } from '../../components/WidgetPreview';
import { widgetSnippet, type CreatedApiKey } from './queries';
import { s } from './strings';

interface AppChoice {
  id?: string;
  name?: string;
  allowedOrigins?: string[];
}

/**
 * The widget snippet for an application, its allowed origins, and a live preview: the real widget in a
 * sandboxed frame (scripts only, no same-origin, so it can reach nothing of the console).
 */
export function EmbedPanel({ apps, appId, onAppChange, created }: { apps: AppChoice[]; appId: string; onAppChange: (id: string) => void; created: CreatedApiKey | null }) {
  const app = apps.find((a) => a.id === appId);
  if (!app) return <p className="ap-muted">{s.noApplication}</p>;
  const origin = window.location.origin;
  const previewKey = created && (created.applicationId === app.id || created.applicationId === null) ? created.key : null;
  const snippet = widgetSnippet(origin, app.id!, previewKey ?? s.keyPlaceholder);
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
      {!previewKey ? <p className="ap-muted">{s.keyNote}</p> : null}
      <div className="ap-actions">
        <CopyButton value={snippet} />
      </div>
      <h3>{s.previewTitle}</h3>
      <p className="ap-muted">{s.previewBody}</p>
      {previewKey ? <WidgetPreview appId={app.id!} apiKey={previewKey} title={s.previewFrame} /> : <p className="ap-muted">{s.previewNeedsKey}</p>}
    </section>
  );
}
