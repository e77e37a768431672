import { ChevronDown, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import type { Trace, TraceSpan } from './queries';
import { s } from './strings';

/** A span's attribute value as text (arrays joined). */
const text = (v: unknown): string => (Array.isArray(v) ? v.join(', ') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

/** The attributes worth a glance, by the names the traces area records (docs/observability.md); the rest under "All details". */
const HIGHLIGHTS: Array<{ keys: string[]; label: string; format?: (v: unknown) => string }> = [
  { keys: ['gen_ai.provider.name'], label: s.trace.provider },
  { keys: ['gen_ai.request.model', 'gen_ai.response.model'], label: s.trace.model },
  { keys: ['gen_ai.usage.input_tokens'], label: s.trace.tokensIn },
  { keys: ['gen_ai.usage.output_tokens'], label: s.trace.tokensOut },
  { keys: ['gen_ai.usage.cost_usd'], label: s.trace.cost, format: (v) => (typeof v === 'number' ? `$${v < 0.01 ? v.toPrecision(2) : v.toFixed(4)}` : text(v)) },
  // Seconds in the GenAI conventions.
  { keys: ['gen_ai.server.time_to_first_token'], label: s.trace.firstToken, format: (v) => (typeof v === 'number' ? s.trace.duration(v * 1000) : text(v)) },
  { keys: ['gen_ai.tool.name'], label: s.trace.tool },
  { keys: ['app.retrieval.hit_count'], label: s.trace.hits },
  { keys: ['app.retrieval.hits.file_name'], label: s.trace.documents, format: (v) => (Array.isArray(v) ? [...new Set(v.filter(Boolean))].join(', ') : text(v)) },
  { keys: ['app.provider.outcome'], label: s.trace.outcome, format: (v) => s.trace.outcomes[String(v)] ?? text(v) },
  { keys: ['app.annotation.score'], label: s.trace.annotation, format: (v) => (typeof v === 'number' ? s.trace.similarity(v) : text(v)) },
];

interface Node {
  span: TraceSpan;
  children: Node[];
}

/** Spans nested by parent; a span whose parent is not in the trace is a root. */
function treeOf(spans: TraceSpan[]): Node[] {
  const nodes = new Map(spans.map((span) => [span.spanId!, { span, children: [] as Node[] }]));
  const roots: Node[] = [];
  for (const node of nodes.values()) {
    const parent = node.span.parentSpanId ? nodes.get(node.span.parentSpanId) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/**
 * One answer's trace (docs/logs.md): its spans nested by parent, each as a bar on the turn's time axis with its
 * duration, the GenAI attributes that matter shown beside it; a span with steps inside folds them away.
 */
export function TraceTree({ trace }: { trace: Trace | null | undefined }) {
  if (!trace?.spans?.length) return <p className="ap-muted">{s.trace.none}</p>;
  const spans = trace.spans;
  const start = Math.min(...spans.map((sp) => Date.parse(sp.startTime!)));
  const end = Math.max(...spans.map((sp) => Date.parse(sp.startTime!) + (sp.durationMs ?? 0)));
  const total = Math.max(1, end - start);
  return (
    <details className="ap-trace">
      <summary>{s.trace.show(spans.length)}</summary>
      <ul className="ap-trace__tree" aria-label={s.trace.tree}>
        {treeOf(spans).map((node) => (
          <SpanRow key={node.span.spanId} node={node} start={start} total={total} depth={0} />
        ))}
      </ul>
    </details>
  );
}

function SpanRow({ node, start, total, depth }: { node: Node; start: number; total: number; depth: number }) {
  const [open, setOpen] = useState(true);
  const { span } = node;
  const offset = ((Date.parse(span.startTime!) - start) / total) * 100;
  const width = Math.max(0.5, ((span.durationMs ?? 0) / total) * 100);
  const attributes = (span.attributes ?? {}) as Record<string, unknown>;
  const highlights = HIGHLIGHTS.flatMap(({ keys, label, format }) => {
    const key = keys.find((k) => Object.hasOwn(attributes, k));
    return key ? [{ label, value: (format ?? text)(attributes[key]) }] : [];
  });
  const name = span.name ?? '';
  return (
    <li>
      <div className="ap-trace__row" style={{ paddingLeft: `${depth * 16}px` }}>
        {node.children.length ? (
          <button type="button" className="ap-icon-button ap-trace__toggle" aria-expanded={open} aria-label={open ? s.trace.collapse(name) : s.trace.expand(name)} onClick={() => setOpen(!open)}>
            {open ? <ChevronDown aria-hidden size={14} /> : <ChevronRight aria-hidden size={14} />}
          </button>
        ) : (
          <span className="ap-trace__toggle" />
        )}
        <span className="ap-trace__name">
          {name}
        </span>
        <span className="ap-trace__axis" aria-hidden>
          <span className={`ap-trace__bar${span.status === 'error' ? ' ap-trace__bar--error' : ''}`} style={{ left: `${offset}%`, width: `${Math.min(width, 100 - offset)}%` }} />
        </span>
        <span className="ap-trace__duration">
          {s.trace.duration(span.durationMs ?? 0)}
        </span>
      </div>
      <div className="ap-trace__facts" style={{ paddingLeft: `${depth * 16 + 22}px` }}>
        {span.status === 'error' ? <span className="ap-trace__failed">{`${s.trace.failed}${span.statusMessage ? `: ${span.statusMessage}` : ''}`}</span> : null}
        {highlights.map((h) => (
          <span key={h.label}>
            {h.label}: <strong>{h.value}</strong>
          </span>
        ))}
        {Object.keys(attributes).length ? (
          <details>
            <summary>{s.trace.details}</summary>
            <dl className="ap-trace__attributes">
              {Object.entries(attributes).map(([k, v]) => (
                <div key={k}>
                  <dt>
                    <code>{k}</code>
                  </dt>
                  <dd>{text(v)}</dd>
                </div>
              ))}
            </dl>
          </details>
        ) : null}
      </div>
      {node.children.length && open ? (
        <ul>
          {node.children.map((child) => (
            <SpanRow key={child.span.spanId} node={child} start={start} total={total} depth={depth + 1} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}
