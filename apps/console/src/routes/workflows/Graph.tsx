import {
  Background,
  Controls,
  Handle,
  Position,
  ReactFlow,
  applyNodeChanges,
  type Connection,
  type Edge,
  type Node,
  type NodeChange,
  type NodeProps,
  useNodesInitialized,
  useReactFlow,
} from '@xyflow/react';
// The library's stylesheet as a file of the build (the console's CSP takes styles from 'self' only; React Flow
// injects none itself, its positions are set through the DOM's style object, which the CSP allows).
import '@xyflow/react/dist/style.css';
import { useEffect, useMemo, useState } from 'react';
import type { WorkflowStep } from './queries';
import { s } from './strings';

type StepNodeData = { step: WorkflowStep; errors: string[] };
type StepNode = Node<StepNodeData, 'step'>;

/** One step on the canvas: its id, kind and the API's refusals for it, all as text. */
function StepNodeView({ data, selected }: NodeProps<StepNode>) {
  const { step, errors } = data;
  const branching = step.kind === 'condition';
  return (
    <div className={`wf-node${errors.length ? ' wf-node--invalid' : ''}${selected ? ' wf-node--selected' : ''}`} data-step={step.id}>
      <Handle type="target" position={Position.Top} />
      <div className="wf-node__title">{step.id}</div>
      <div className="wf-node__kind">{step.kind}</div>
      {errors.map((e) => (
        <p key={e} className="wf-node__error">
          {e}
        </p>
      ))}
      {branching ? (
        <>
          <Handle type="source" id="then" position={Position.Bottom} className="wf-handle--then" />
          <Handle type="source" id="else" position={Position.Right} className="wf-handle--else" />
        </>
      ) : (
        <Handle type="source" position={Position.Bottom} />
      )}
    </div>
  );
}

const nodeTypes = { step: StepNodeView };

/** Brings every step into view again when steps come or go (a pasted graph, an added step). */
function FitOnChange({ count }: { count: number }) {
  const flow = useReactFlow();
  const measured = useNodesInitialized();
  useEffect(() => {
    if (measured) void flow.fitView({ padding: 0.2, maxZoom: 1 });
  }, [count, measured, flow]);
  return null;
}

/** The links of a step graph: `next` (absent: the following step), a condition's `then` and `else`. */
export function edgesOf(steps: WorkflowStep[]): Edge[] {
  const ids = new Set(steps.map((st) => st.id));
  const edges: Edge[] = [];
  steps.forEach((st, i) => {
    const add = (field: 'next' | 'then' | 'else', target: string | null | undefined) => {
      if (!target || !ids.has(target)) return;
      edges.push({
        id: `${st.id}:${field}`,
        source: st.id,
        target,
        sourceHandle: field === 'next' ? undefined : field,
        label: field === 'next' ? undefined : field,
        deletable: true,
      });
    };
    if (st.kind === 'condition') {
      add('then', st.then);
      add('else', st.else);
    } else add('next', st.next === undefined ? steps[i + 1]?.id : st.next);
  });
  return edges;
}

/** The visual editor of a step graph (lazy: React Flow loads with the first workflow opened). */
export default function Graph({
  steps,
  errors,
  onChange,
  readOnly = false,
}: {
  steps: WorkflowStep[];
  errors: Record<string, string[]>;
  onChange: (steps: WorkflowStep[]) => void;
  /** A Viewer's: the graph can be looked at, moved around and zoomed, not changed. */
  readOnly?: boolean;
}) {
  // Where each step sits and its measured size (React Flow shows a node once it is measured).
  const [placed, setPlaced] = useState<Record<string, Pick<StepNode, 'position' | 'measured'>>>({});
  const [selected, setSelected] = useState<string | null>(null);

  const nodes: StepNode[] = useMemo(
    () =>
      steps.map((step, i) => ({
        id: step.id,
        type: 'step',
        position: placed[step.id]?.position ?? { x: 40 + (i % 2) * 60, y: 20 + i * 130 },
        measured: placed[step.id]?.measured,
        data: { step, errors: errors[step.id] ?? [] },
        selected: selected === step.id,
        ariaLabel: `${step.id} (${step.kind})`,
      })),
    [steps, placed, errors, selected],
  );
  const edges = useMemo(() => edgesOf(steps), [steps]);

  const onNodesChange = (changes: NodeChange<StepNode>[]) => {
    const next = applyNodeChanges(changes, nodes);
    setPlaced(Object.fromEntries(next.map((n) => [n.id, { position: n.position, measured: n.measured }])));
    const chosen = next.find((n) => n.selected);
    setSelected(chosen?.id ?? null);
  };

  const setLink = (stepId: string, field: 'next' | 'then' | 'else', target: string | null) =>
    onChange(steps.map((st) => (st.id === stepId ? { ...st, [field]: target } : st)));

  const onConnect = (c: Connection) => {
    const field = c.sourceHandle === 'then' || c.sourceHandle === 'else' ? c.sourceHandle : 'next';
    setLink(c.source, field, c.target);
  };

  return (
    <div className="wf-canvas">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onConnect={onConnect}
        onEdgesDelete={(removed) => {
          let next = steps;
          for (const e of removed) {
            const [source, field] = e.id.split(':') as [string, 'next' | 'then' | 'else'];
            next = next.map((st) => (st.id === source ? { ...st, [field]: null } : st));
          }
          onChange(next);
        }}
        onNodesDelete={(removed) => {
          const gone = new Set(removed.map((n) => n.id));
          onChange(steps.filter((st) => !gone.has(st.id)));
        }}
        nodesConnectable={!readOnly}
        deleteKeyCode={readOnly ? null : undefined}
        fitView
        fitViewOptions={{ padding: 0.2, maxZoom: 1 }}
        minZoom={0.3}
        aria-label={s.graph}
      >
        <Background />
        <FitOnChange count={steps.length} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
