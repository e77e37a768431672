import { useEffect, useState } from 'react';
import { Button } from '../../components/Button';
import { TextArea } from '../../components/Field';
import { ErrorState, ErrorText, Loading } from '../../components/States';
import { formatDate } from '../../lib/format';
import { useAddChunk, useChunks, useEditChunk, useReplaceDocument, useRestoreVersion, useVersions, type KnowledgeChunk, type KnowledgeDocument } from './queries';
import { formatBytes, s } from './strings';

function ChunkItem({ baseId, documentId, chunk }: { baseId?: string; documentId: string; chunk: KnowledgeChunk }) {
  const edit = useEditChunk(baseId, documentId);
  const [text, setText] = useState(chunk.content ?? '');
  useEffect(() => setText(chunk.content ?? ''), [chunk.content]);
  const index = chunk.chunkIndex ?? 0;
  return (
    <li className="ap-kn-hit" aria-label={s.chunkLabel(index)}>
      <p className="ap-muted">
        {s.chunkLabel(index)}
        {chunk.page != null ? ` · ${s.page(chunk.page)}` : ''}
        {chunk.section ? ` · ${s.section(chunk.section)}` : ''}
        {chunk.enabled ? '' : ` · ${s.disabled}`}
      </p>
      <TextArea label={s.chunkText(index)} value={text} rows={3} onChange={(e) => setText(e.target.value)} />
      <div className="ap-row">
        <Button busy={edit.isPending} disabled={text.trim() === '' || text === chunk.content} onClick={() => edit.mutate({ index, content: text })}>
          {s.saveChunk}
        </Button>
        <Button variant="ghost" onClick={() => edit.mutate({ index, enabled: !chunk.enabled })}>
          {chunk.enabled ? s.disable : s.enable}
        </Button>
      </div>
      {edit.isSuccess ? <p role="status">{s.chunkSaved}</p> : null}
      <ErrorText error={edit.error} />
    </li>
  );
}

/** One document's versions (upload a new one, bring an earlier one back) and its chunks (edit, leave out, add). */
export function DocumentPanel({ baseId, doc, onClose }: { baseId?: string; doc: KnowledgeDocument; onClose: () => void }) {
  const id = doc.id!;
  const versions = useVersions(id);
  // The version in use as this panel's own list shows it (not the documents list's row, which refreshes on its own
  // and would swap the chunks, and an edit's confirmation, out from under someone typing).
  const inUse = versions.data?.find((v) => v.state === 'current')?.version ?? doc.version;
  const chunks = useChunks(id, inUse);
  const replace = useReplaceDocument(baseId, id);
  const restore = useRestoreVersion(baseId, id);
  const add = useAddChunk(baseId, id);
  const [passage, setPassage] = useState('');

  return (
    <section className="ap-card ap-stack" aria-labelledby="kn-manage">
      <div className="ap-row">
        <h2 id="kn-manage">{s.manage(doc.fileName ?? '')}</h2>
        <Button variant="ghost" onClick={onClose}>
          {s.closeManage}
        </Button>
      </div>
      <h3>{s.versionsTitle}</h3>
      <p className="ap-muted">{s.versionsHint}</p>
      <div className="ap-field">
        <label htmlFor="kn-new-version">{s.newVersion}</label>
        <input
          id="kn-new-version"
          type="file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) replace.mutate(file);
            e.target.value = '';
          }}
        />
      </div>
      {replace.isSuccess ? <p role="status">{s.replaced(doc.fileName ?? '')}</p> : null}
      <ErrorText error={replace.error ?? restore.error} />
      {restore.isSuccess ? <p role="status">{s.restored(restore.variables ?? 0)}</p> : null}
      {versions.isPending ? (
        <Loading />
      ) : versions.isError ? (
        <ErrorState error={versions.error} onRetry={() => void versions.refetch()} />
      ) : (
        <ul className="ap-stack" aria-label={s.versionsTitle}>
          {versions.data.map((v) => (
            <li key={v.version} aria-label={s.version(v.version ?? 0)}>
              <span className="ap-strong">{s.version(v.version ?? 0)}</span>
              {' · '}
              {s.versionState[v.state ?? 'previous']}
              {' · '}
              {v.fileName} · {formatBytes(v.size ?? 0)} · {v.createdAt ? formatDate(v.createdAt) : ''}
              {v.restoredFrom ? ` · ${s.restoredFrom(v.restoredFrom)}` : ''}
              {v.failure ? ` · ${v.failure}` : ''}
              {v.state === 'previous' || v.state === 'failed' ? (
                <>
                  {' '}
                  <Button variant="ghost" busy={restore.isPending && restore.variables === v.version} onClick={() => restore.mutate(v.version!)}>
                    {s.restore(v.version ?? 0)}
                  </Button>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <h3>{s.chunksTitle}</h3>
      <p className="ap-muted">{s.chunksHint}</p>
      {chunks.isPending ? (
        <Loading />
      ) : chunks.isError ? (
        <ErrorState error={chunks.error} onRetry={() => void chunks.refetch()} />
      ) : (
        <ol className="ap-kn-hits" aria-label={s.chunksTitle}>
          {chunks.data.map((chunk) => (
            <ChunkItem key={`${chunk.chunkIndex}-${inUse}`} baseId={baseId} documentId={id} chunk={chunk} />
          ))}
        </ol>
      )}
      <TextArea label={s.addChunkLabel} value={passage} rows={3} onChange={(e) => setPassage(e.target.value)} />
      <div>
        <Button busy={add.isPending} disabled={passage.trim() === ''} onClick={() => add.mutate(passage.trim(), { onSuccess: () => setPassage('') })}>
          {s.addChunkButton}
        </Button>
      </div>
      <ErrorText error={add.error} />
    </section>
  );
}
