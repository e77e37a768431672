import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { ApplicationScope } from '../../components/ApplicationScope';
import { Documents } from '../../components/knowledge/Documents';
import { SearchTester } from '../../components/knowledge/SearchTester';
import { Upload } from '../../components/knowledge/Upload';
import { RetrievalSettingsCard } from './RetrievalSettings';
import { UsedBases } from './UsedBases';
import { s } from '../../components/knowledge/strings';

/** Knowledge: choose an application, upload documents, watch them processed, search them, delete them. */
export default function Knowledge() {
  const [announce, setAnnounce] = useState('');
  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      <p className="ap-visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>
      <ApplicationScope id="kn-app" emptyBody={s.noApplicationsBody}>
        {(chosen) => (
          <>
            {/* The application's own knowledge base has the application's id. */}
            <Upload key={`u-${chosen}`} baseId={chosen} onAnnounce={setAnnounce} />
            <Documents baseId={chosen} />
            <UsedBases key={`b-${chosen}`} applicationId={chosen} />
            <RetrievalSettingsCard key={`r-${chosen}`} applicationId={chosen} />
            <SearchTester key={`s-${chosen}`} scope={chosen ? { applicationId: chosen } : undefined} />
          </>
        )}
      </ApplicationScope>
    </>
  );
}
