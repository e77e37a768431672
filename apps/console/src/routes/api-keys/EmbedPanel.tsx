import { Link } from 'react-router';
import { CopyButton } from '../../components/CopyButton';
import { widgetSnippet, type CreatedApiKey } from './queries';
import { s } from './strings';

interface AppChoice {
  id?: string;
  name?: string;
  allowedOrigins?: string[];
}

const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

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
  const previewDoc = previewKey
    ? `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${attr(s.previewFrame)}</title></head><body><script src="${attr(origin)}/public/widget.js" data-app-id="${attr(app.id!)}" data-api-key="${attr(previewKey)}" data-position="bottom-right"></script></body></html>`
    : null;
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
      {previewDoc ? <iframe className="ap-preview" title={s.previewFrame} sandbox="allow-scripts" srcDoc={previewDoc} /> : <p className="ap-muted">{s.previewNeedsKey}</p>}
    </section>
  );
}
