import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState } from '../../components/States';
import { s } from './strings';

/** An application's Evaluate tab: test sets run against its versions. Its empty state until the evaluation issue lands. */
export default function Evaluate({ applicationId }: { applicationId: string }) {
  return (
    <>
      <PageHeader title={s.evaluate.title} />
      <EmptyState
        title={s.evaluate.empty}
        action={
          <Link className="ap-button ap-button--secondary" to={`/applications/${applicationId}/build`}>
            {s.evaluate.build}
          </Link>
        }
      >
        {s.evaluate.body}
      </EmptyState>
    </>
  );
}
