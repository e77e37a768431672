import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, Loading } from '../../components/States';
import { Documents } from './Documents';
import { SearchTester } from './SearchTester';
import { Upload } from './Upload';
import { useApplicationChoices } from './queries';
import { s } from './strings';

/** Knowledge: choose an application, upload documents, watch them processed, search them, delete them. */
export default function Knowledge() {
  const apps = useApplicationChoices();
  const [params, setParams] = useSearchParams();
  const [announce, setAnnounce] = useState('');
  const chosen = params.get('app') ?? apps.data?.[0]?.id;

  let body;
  if (apps.isPending) body = <Loading />;
  else if (apps.isError) body = <ErrorState error={apps.error} onRetry={() => void apps.refetch()} />;
  else if (!apps.data.length)
    body = (
      <EmptyState title={s.noApplications} action={<Link className="ap-button ap-button--primary" to="/applications">{s.createApplication}</Link>}>
        {s.noApplicationsBody}
      </EmptyState>
    );
  else
    body = (
      <div className="ap-stack">
        <div className="ap-field">
          <label htmlFor="kn-app">{s.application}</label>
          <select id="kn-app" className="ap-select" value={chosen} onChange={(e) => setParams({ app: e.target.value })}>
            {apps.data.map((app) => (
              <option key={app.id} value={app.id}>
                {app.name}
              </option>
            ))}
          </select>
        </div>
        <Upload key={`u-${chosen}`} applicationId={chosen} onAnnounce={setAnnounce} />
        <Documents applicationId={chosen} />
        <SearchTester key={`s-${chosen}`} applicationId={chosen} />
      </div>
    );

  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      <p className="ap-visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>
      {body}
    </>
  );
}
