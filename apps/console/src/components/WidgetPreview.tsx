import { useEffect, useState } from 'react';

const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** What the widget receives as `GET /api/v1/app`: an application's name, resolved theme and branding. */
export interface WidgetDraft {
  name: string;
  theme: { themeId: string | null; colors: Record<string, string>; variables: Record<string, string> };
  branding: { position?: string | null; welcomeMessage?: string | null; placeholder?: string | null; customCss?: string; showAttribution?: boolean };
}

type Source =
  /**
   * The real widget against the platform, with a widget preview session of the application (the embed
   * preview: `POST /api/applications/:id/widget-preview`, sent where the widget sends its key) or a raw key.
   */
  | { apiKey: string; draft?: undefined }
  /** The real widget fed a draft (unsaved theme or branding): its requests are answered inside the frame. */
  | { draft: WidgetDraft; apiKey?: undefined };

/** The frame's document: the platform's own scripts only (the console's CSP governs a srcdoc frame too). */
function previewDocument(origin: string, appId: string, title: string, source: Source, reply: string, widgetTitle?: string): string {
  const shim = source.draft ? `<script src="${attr(origin)}/widget-preview.js" data-preview="${attr(JSON.stringify({ app: { id: appId, ...source.draft }, reply }))}"></script>` : '';
  const key = source.apiKey ?? 'preview';
  const position = source.draft ? '' : ' data-position="bottom-right"';
  const named = widgetTitle ? ` data-title="${attr(widgetTitle)}"` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${attr(title)}</title></head><body>${shim}<script src="${attr(origin)}/public/widget.js" data-app-id="${attr(appId)}" data-api-key="${attr(key)}"${position}${named}></script></body></html>`;
}

/**
 * The real widget (`/public/widget.js`) in a sandboxed frame: scripts only, no same-origin, so it reaches
 * nothing of the console. With an API key it talks to the platform as a visitor's page would; with a draft
 * it shows that draft (re-rendered shortly after the draft stops changing) and never chats.
 */
export function WidgetPreview({ appId, title, reply = '', widgetTitle, ...source }: { appId: string; title: string; reply?: string; /** The widget's own title (its launcher reads "Chat with …"). */ widgetTitle?: string } & Source) {
  const origin = window.location.origin;
  const doc = previewDocument(origin, appId, title, source as Source, reply, widgetTitle);
  const [shown, setShown] = useState(doc);
  const [loaded, setLoaded] = useState<string | null>(null);
  useEffect(() => {
    if (doc === shown) return;
    const timer = setTimeout(() => setShown(doc), 400);
    return () => clearTimeout(timer);
  }, [doc, shown]);
  const current = source.draft ? shown : doc;
  // Busy while a change waits to be shown or the frame is loading it (the frame is blank for a moment).
  const busy = current !== doc || loaded !== current;
  return <iframe className="ap-preview" title={title} sandbox="allow-scripts" srcDoc={current} aria-busy={busy || undefined} onLoad={() => setLoaded(current)} />;
}
