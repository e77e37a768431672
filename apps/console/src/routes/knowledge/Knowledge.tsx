import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { ApplicationScope } from '../../components/ApplicationScope';
import { Documents } from './Documents';
import { SearchTester } from './SearchTester';
import { Upload } from './Upload';
import { RetrievalSettingsCard } from './RetrievalSettings';
import { s } from './strings';

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
            <Upload key={`u-${chosen}`} applicationId={chosen} onAnnounce={setAnnounce} />
            <Documents applicationId={chosen} />
            <RetrievalSettingsCard key={`r-${chosen}`} applicationId={chosen} />
            <SearchTester key={`s-${chosen}`} applicationId={chosen} />
          </>
        )}
      </ApplicationScope>
    </>
  );
}
