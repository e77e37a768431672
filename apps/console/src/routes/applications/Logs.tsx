import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState } from '../../components/States';
import { s } from './strings';

/** An application's Logs tab: what end users were told. Its empty state until the logs issue lands. */
export default function Logs({ applicationId }: { applicationId: string }) {
  return (
    <>
      <PageHeader title={s.logs.title} />
      <EmptyState
        title={s.logs.empty}
        action={
          <Link className="ap-button ap-button--secondary" to={`/playground/${applicationId}`}>
            {s.logs.playground}
          </Link>
        }
      >
        {s.logs.body}
      </EmptyState>
    </>
  );
}
