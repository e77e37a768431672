import { useEffect } from 'react';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router';
import { useApplicationChoices } from '../../components/ApplicationScope';
import { EmptyState, ErrorState, Loading } from '../../components/States';
import { t } from '../../lib/strings';
import Build from './Build';
import { useApplication } from './queries';
import { s } from './strings';
import './studio.css';

/**
 * The studio (`/studio/:appId`) until the application-level layout mounts Build at `/applications/:appId/build`;
 * `/studio` opens the first application.
 */
export default function StudioArea() {
  return (
    <Routes>
      <Route index element={<FirstApplication />} />
      <Route path=":appId" element={<StudioOf />} />
    </Routes>
  );
}

function StudioOf() {
  const { appId } = useParams();
  const app = useApplication(appId!);
  return (
    <>
      <p className="ap-studio-app">
        {t.application}: <span className="ap-strong">{app.data?.name ?? ''}</span>
      </p>
      <Build applicationId={appId!} />
    </>
  );
}

function FirstApplication() {
  const apps = useApplicationChoices();
  const navigate = useNavigate();
  useEffect(() => {
    if (apps.data?.length) navigate(`/studio/${apps.data[0]!.id}`, { replace: true });
  }, [apps.data, navigate]);
  if (apps.isError) return <ErrorState error={apps.error} onRetry={() => void apps.refetch()} />;
  if (apps.data && !apps.data.length)
    return (
      <EmptyState title={s.noApplications} action={<Link className="ap-button ap-button--primary" to="/applications">{t.createApplication}</Link>}>
        {s.noApplicationsBody}
      </EmptyState>
    );
  return <Loading />;
}
