import { useState } from 'react';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { ErrorState, ErrorText, Loading } from '../../components/States';
import { useAddToDataset, useDatasetChoices, type DatasetSource } from './queries';
import { s } from './strings';

const a = s.annotations;

/**
 * An annotation, or a logged answer, into one of the application's test sets (the Evaluate tab's datasets): the
 * question becomes the test question and the answer the one expected.
 */
export function ToDatasetDialog({ appId, source, onClose }: { appId: string; source: DatasetSource; onClose: () => void }) {
  const datasets = useDatasetChoices(appId);
  const add = useAddToDataset(appId);
  const [datasetId, setDatasetId] = useState('');
  const [done, setDone] = useState('');
  const chosen = datasets.data?.find((d) => d.id === datasetId);
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={a.toDatasetTitle} description={a.toDatasetBody}>
      {datasets.isPending ? (
        <Loading />
      ) : datasets.isError ? (
        <ErrorState error={datasets.error} onRetry={() => void datasets.refetch()} />
      ) : !datasets.data.length ? (
        <p className="ap-muted">{a.noDatasets}</p>
      ) : (
        <form
          className="ap-stack"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!datasetId) return;
            add.mutate({ datasetId, source }, { onSuccess: () => setDone(a.addedToDataset(chosen?.name ?? '')) });
          }}
        >
          <div className="ap-field">
            <label htmlFor="to-dataset">{a.dataset}</label>
            <select id="to-dataset" className="ap-select" value={datasetId} onChange={(e) => setDatasetId(e.target.value)}>
              <option value="">{a.chooseDataset}</option>
              {datasets.data.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </div>
          <ErrorText error={add.error} />
          <p role="status" className="ap-muted">
            {done}
          </p>
          <div className="ap-actions">
            <Button type="submit" variant="primary" busy={add.isPending} disabled={!datasetId}>
              {a.addToDataset}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
