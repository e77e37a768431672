import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { ApiError } from '../../lib/errors';
import { Documents } from '../../components/knowledge/Documents';
import { useBase, useUpdateBase } from '../../components/knowledge/queries';
import { SearchTester } from '../../components/knowledge/SearchTester';
import { s as strings } from '../../components/knowledge/strings';
import { Upload } from '../../components/knowledge/Upload';

const s = strings.bases;

/** A base's name and description. */
function Details({ id, name, description }: { id: string; name: string; description: string }) {
  const update = useUpdateBase(id);
  const [values, setValues] = useState({ name, description });
  useEffect(() => setValues({ name, description }), [name, description]);
  return (
    <section className="ap-card ap-stack" aria-labelledby="kb-details">
      <h2 id="kb-details">{s.details}</h2>
      <form
        className="ap-stack"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          update.mutate({ name: values.name.trim(), description: values.description.trim() });
        }}
      >
        <Field label={s.name} maxLength={100} value={values.name} onChange={(e) => setValues({ ...values, name: e.target.value })} />
        <Field label={s.descriptionLabel} maxLength={1000} value={values.description} onChange={(e) => setValues({ ...values, description: e.target.value })} />
        <div>
          <Button type="submit" busy={update.isPending}>
            {s.saveDetails}
          </Button>
        </div>
        {update.isSuccess ? <p role="status">{s.detailsSaved}</p> : null}
        <ErrorText error={update.error} />
      </form>
    </section>
  );
}

/** One knowledge base: its documents (with versions and chunks), uploads, details and search tester. */
export default function Base() {
  const { baseId } = useParams();
  const base = useBase(baseId);
  const [announce, setAnnounce] = useState('');
  const back = (
    <p>
      <Link to="/knowledge-bases">{s.back}</Link>
    </p>
  );
  if (base.isPending) return <Loading />;
  if (base.isError) {
    const missing = base.error instanceof ApiError && base.error.status === 404;
    return (
      <>
        {back}
        {missing ? <EmptyState title={s.notFound} /> : <ErrorState error={base.error} onRetry={() => void base.refetch()} />}
      </>
    );
  }
  const id = base.data.id!;
  return (
    <>
      {back}
      <PageHeader title={base.data.name ?? ''} description={base.data.description || s.description} />
      <p className="ap-visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>
      <Upload key={`u-${id}`} baseId={id} onAnnounce={setAnnounce} />
      <Documents baseId={id} />
      <SearchTester key={`s-${id}`} scope={{ baseId: id }} />
      {base.data.applicationId ? null : <Details id={id} name={base.data.name ?? ''} description={base.data.description ?? ''} />}
    </>
  );
}
