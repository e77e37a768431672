import { ArrowLeft, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { formatNumber } from '../../lib/format';
import { useAddVersion, useComparison, useConfig, useDeleteVersion, useUpdateVersion, type Version } from './queries';
import { s } from './strings';
import { AbTest } from './AbTest';

interface Arm {
  name: string;
  control: boolean;
  traffic: number;
  metrics: NonNullable<Version['metrics']>;
}

/** A metric as text, or "No data" where the API has none (null): never a 0 that reads as a measurement. */
const figure = (n: number | null | undefined, format: (n: number) => string): string => (n == null ? s.noData : format(n));

/** One metric of every arm as horizontal SVG bars, the figures written beside them; an arm without data has no bar. */
function BarChart({ title, arms, value, format }: { title: string; arms: Arm[]; value: (a: Arm) => number | null | undefined; format: (n: number) => string }) {
  const max = Math.max(1, ...arms.map((a) => value(a) ?? 0));
  const row = 28;
  return (
    <figure>
      <figcaption>{title}</figcaption>
      <svg width="100%" height={arms.length * row} viewBox={`0 0 400 ${arms.length * row}`} role="img" aria-label={`${title}: ${arms.map((a) => `${a.name} ${figure(value(a), format)}`).join(', ')}`}>
        {arms.map((arm, i) => {
          const v = value(arm);
          return (
            <g key={arm.name} transform={`translate(0 ${i * row})`}>
              <text x={0} y={17}>
                {arm.name.length > 18 ? `${arm.name.slice(0, 17)}…` : arm.name}
              </text>
              {v == null ? null : <rect className={arm.control ? 'ap-mc-bar ap-mc-bar--control' : 'ap-mc-bar'} x={140} y={5} height={16} width={Math.max(1, (v / max) * 180)} />}
              <text x={146 + ((v ?? 0) / max) * 180} y={17}>
                {figure(v, format)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

function TrafficCell({ configId, version }: { configId: string; version: Version }) {
  const update = useUpdateVersion(configId);
  const form = useForm<{ trafficPercent: string }>({ defaultValues: { trafficPercent: String(version.trafficPercent ?? 0) } });
  const submit = form.handleSubmit(({ trafficPercent }) =>
    update.mutate(
      { versionId: version._id!, trafficPercent: Number(trafficPercent) },
      {
        onError: (error) => {
          const message = fieldErrors(error, ['trafficPercent'] as const).trafficPercent ?? (error as Error).message;
          form.setError('trafficPercent', { message });
        },
      },
    ),
  );
  return (
    <form className="ap-inline-form" noValidate onSubmit={submit}>
      <Field label={s.trafficLabel(version.label ?? '')} inputMode="decimal" error={form.formState.errors.trafficPercent?.message} {...form.register('trafficPercent')} />
      <Button type="submit" aria-label={s.saveTrafficLabel(version.label ?? '')} busy={update.isPending}>
        {s.saveTraffic}
      </Button>
    </form>
  );
}

function AddVersion({ configId }: { configId: string }) {
  const add = useAddVersion(configId);
  const FIELDS = ['label', 'trafficPercent', 'settings.temperature'] as const;
  const form = useForm<{ label: string; trafficPercent: string; settings: { temperature: string } }>({ defaultValues: { label: '', trafficPercent: '0', settings: { temperature: '' } } });
  const { errors } = form.formState;
  const submit = form.handleSubmit((values) => {
    const temperature = values.settings.temperature.trim();
    add.mutate(
      { label: values.label.trim(), trafficPercent: Number(values.trafficPercent), ...(temperature ? { settings: { temperature: Number(temperature) } } : {}) },
      {
        onSuccess: () => form.reset(),
        onError: (error) => {
          for (const [field, message] of Object.entries(fieldErrors(error, FIELDS))) form.setError(field as 'label', { message: message as string });
        },
      },
    );
  });
  const unplaced = add.error && !Object.keys(fieldErrors(add.error, FIELDS)).length ? add.error : null;
  return (
    <section className="ap-card ap-stack" aria-labelledby="mc-add">
      <h2 id="mc-add">{s.addVersion}</h2>
      <form className="ap-stack" noValidate onSubmit={submit}>
        <div className="ap-mc-grid">
          <Field label={s.label} error={errors.label?.message} {...form.register('label', { required: `${s.label} is required` })} />
          <Field label={s.traffic} inputMode="decimal" error={errors.trafficPercent?.message} {...form.register('trafficPercent')} />
          <Field label={s.temperature} inputMode="decimal" error={errors.settings?.temperature?.message} {...form.register('settings.temperature')} />
        </div>
        <ErrorText error={unplaced} />
        <div className="ap-actions">
          <Button type="submit" variant="primary" busy={add.isPending}>
            {s.addVersion}
          </Button>
        </div>
      </form>
    </section>
  );
}

/** A config's A/B versions: traffic shares, the metrics of each arm beside the control, add, delete. */
export default function Versions() {
  const { configId = '' } = useParams();
  const comparison = useComparison(configId);
  const config = useConfig(configId);
  const remove = useDeleteVersion(configId);
  const [deleting, setDeleting] = useState<Version | null>(null);
  const name = comparison.data?.control?.name ?? '';

  let body;
  if (comparison.isPending) body = <Loading />;
  else if (comparison.isError) body = <ErrorState error={comparison.error} onRetry={() => void comparison.refetch()} />;
  else {
    const { control, versions = [] } = comparison.data;
    const empty = { requestCount: 0, avgLatencyMs: null, avgTokensUsed: null, errorRate: null, userSatisfactionScore: null };
    const arms: Arm[] = [
      { name: s.control(control?.name ?? ''), control: true, traffic: control?.trafficPercent ?? 100, metrics: control?.metrics ?? empty },
      ...versions.map((v) => ({ name: v.label ?? v.version ?? '', control: false, traffic: v.trafficPercent ?? 0, metrics: v.metrics ?? empty })),
    ];
    body = (
      <div className="ap-stack">
        {versions.length ? (
          <DataTable
            caption={s.versions}
            rows={versions}
            rowKey={(v) => v._id!}
            columns={[
              {
                header: s.vcolumns.version,
                rowHeader: true,
                cell: (v) => (
                  <>
                    <span className="ap-strong">{v.label}</span>
                    <span className="ap-muted ap-block">{v.version}</span>
                  </>
                ),
              },
              {
                header: s.vcolumns.model,
                cell: (v) => (
                  <>
                    {s.providers[v.provider ?? ''] ?? v.provider} · <code>{v.modelId}</code>
                  </>
                ),
              },
              { header: s.vcolumns.traffic, cell: (v) => <TrafficCell key={`${v._id}-${v.trafficPercent}`} configId={configId} version={v} /> },
              { header: s.vcolumns.active, cell: (v) => (v.isActive ? s.yes : s.no) },
            ]}
            actionsLabel={s.vcolumns.actions}
            actions={(v) => (
              <Button variant="ghost" aria-label={s.deleteVersionLabel(v.label ?? '')} onClick={() => setDeleting(v)}>
                <Trash2 aria-hidden size={16} />
              </Button>
            )}
          />
        ) : (
          <EmptyState title={s.noVersions}>{s.noVersionsBody}</EmptyState>
        )}
        <AddVersion configId={configId} />
        <section className="ap-card ap-stack" aria-labelledby="mc-metrics">
          <h2 id="mc-metrics">{s.metricsTitle}</h2>
          <div className="ap-mc-chart">
            <BarChart title={s.chartRequests} arms={arms} value={(a) => a.metrics.requestCount ?? 0} format={formatNumber} />
            <BarChart title={s.chartLatency} arms={arms} value={(a) => a.metrics.avgLatencyMs} format={s.ms} />
          </div>
          <DataTable
            caption={s.metricsTitle}
            rows={arms}
            rowKey={(arm) => arm.name}
            columns={[
              { header: s.mcolumns.arm, rowHeader: true, cell: (arm) => arm.name },
              { header: s.mcolumns.traffic, cell: (arm) => s.percent(arm.traffic) },
              { header: s.mcolumns.requests, cell: (arm) => formatNumber(arm.metrics.requestCount ?? 0) },
              { header: s.mcolumns.latency, cell: (arm) => figure(arm.metrics.avgLatencyMs, s.ms) },
              { header: s.mcolumns.tokens, cell: (arm) => figure(arm.metrics.avgTokensUsed, (n) => formatNumber(Math.round(n))) },
              { header: s.mcolumns.errors, cell: (arm) => figure(arm.metrics.errorRate, (n) => s.percent(Math.round(n * 10000) / 100)) },
              { header: s.mcolumns.rating, cell: (arm) => figure(arm.metrics.userSatisfactionScore, s.rating) },
            ]}
          />
        </section>
        <AbTest configId={configId} applicationId={config.data?.applicationId} />
      </div>
    );
  }

  return (
    <>
      <Link className="ap-button ap-button--ghost" to={config.data?.applicationId ? `/model-configs?app=${config.data.applicationId}` : '/model-configs'}>
        <ArrowLeft aria-hidden size={16} />
        {s.back}
      </Link>
      <PageHeader title={s.versionsTitle(name)} description={s.versionsDescription} />
      {body}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(open) => {
          if (!open) {
            setDeleting(null);
            remove.reset();
          }
        }}
        title={s.deleteVersionTitle(deleting?.label ?? '')}
        description={s.deleteVersionBody}
        confirmLabel={s.deleteVersionConfirm}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate(deleting._id!, { onSuccess: () => setDeleting(null) })}
      />
    </>
  );
}
