import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { useDeployTemplate, useTemplates, type DeployedTemplate, type Template } from './queries';
import { s } from './strings';

function DeployDialog({ template, onClose }: { template: Template; onClose: () => void }) {
  const deploy = useDeployTemplate();
  const [name, setName] = useState('');
  const [done, setDone] = useState<DeployedTemplate | null>(null);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={s.deployTitle(template.name ?? '')} description={template.description}>
      {done ? (
        <div className="ap-stack">
          <p role="status">{s.deployed(done.application?.name ?? '')}</p>
          {done.workflows?.length ? (
            <>
              <p>{s.deployedWorkflows}</p>
              <ul>
                {done.workflows.map((w) => (
                  <li key={w.id}>
                    <Link to={`/workflows/${w.id}`}>{w.name}</Link>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <div className="ap-actions">
            <Link className="ap-button ap-button--primary" to={`/workflows?app=${done.application?.id}`}>
              {s.openApplication}
            </Link>
          </div>
        </div>
      ) : (
        <form
          className="ap-stack"
          onSubmit={(e) => {
            e.preventDefault();
            deploy.mutate({ id: template.id!, name: name.trim() || undefined }, { onSuccess: setDone });
          }}
        >
          <Field label={s.deployName} hint={s.deployNameHint} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
          <ErrorText error={deploy.error} />
          <div className="ap-actions">
            <Button onClick={onClose}>{s.back}</Button>
            <Button type="submit" variant="primary" busy={deploy.isPending}>
              {s.deploy}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** The templates shipped with the platform, each deployable into the caller's account. */
export default function Templates() {
  const templates = useTemplates();
  const [deploying, setDeploying] = useState<Template | null>(null);
  let body;
  if (templates.isPending) body = <Loading />;
  else if (templates.isError) body = <ErrorState error={templates.error} onRetry={() => void templates.refetch()} />;
  else if (!templates.data.length) body = <EmptyState title={s.noTemplates} />;
  else
    body = (
      <ul className="wf-gallery">
        {templates.data.map((tpl) => (
          <li key={tpl.id} className="ap-card wf-template">
            <h2>{tpl.name}</h2>
            <p className="ap-muted">{tpl.description}</p>
            <dl className="ap-facts">
              <div className="ap-facts__row">
                <dt>{s.templateFacts.model}</dt>
                <dd>{tpl.model}</dd>
              </div>
              <div className="ap-facts__row">
                <dt>{s.templateFacts.theme}</dt>
                <dd>{tpl.theme}</dd>
              </div>
              <div className="ap-facts__row">
                <dt>{s.templateFacts.workflows}</dt>
                <dd>{tpl.workflows?.map((w) => w.name).join(', ') || s.none}</dd>
              </div>
              <div className="ap-facts__row">
                <dt>{s.templateFacts.knowledge}</dt>
                <dd>{tpl.knowledgeDocuments?.join(', ') || s.none}</dd>
              </div>
            </dl>
            <div className="ap-actions">
              <Button variant="primary" aria-label={s.deployLabel(tpl.name ?? '')} onClick={() => setDeploying(tpl)}>
                {s.deploy}
              </Button>
            </div>
          </li>
        ))}
      </ul>
    );
  return (
    <>
      <PageHeader title={s.templatesTitle} description={s.templatesDescription} />
      <Link to="/workflows" className="ap-back">
        <ArrowLeft aria-hidden size={16} />
        {s.back}
      </Link>
      {body}
      {deploying ? <DeployDialog template={deploying} onClose={() => setDeploying(null)} /> : null}
    </>
  );
}
