import { Upload as UploadIcon } from 'lucide-react';
import { useRef, useState, type DragEvent } from 'react';
import { Button } from '../../components/Button';
import { describeError } from '../../components/States';
import { useUpload, type EmbeddingProvider } from './queries';
import { s } from './strings';

const ACCEPT = '.txt,.md,.markdown,.json,.csv,.html,.htm,.xml,.pdf,.docx';

interface Notice {
  id: number;
  text: string;
  failed: boolean;
}

/** Drag-and-drop (or the file picker) upload; each file's outcome listed, refusals with the API's reason. */
export function Upload({ baseId, onAnnounce }: { baseId?: string; onAnnounce: (text: string) => void }) {
  const upload = useUpload(baseId);
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [notices, setNotices] = useState<Notice[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const counter = useRef(0);
  const [embedding, setEmbedding] = useState<EmbeddingProvider>('local');

  async function send(files: File[]) {
    for (const file of files) {
      setBusy(file.name);
      let notice: Notice;
      try {
        await upload.mutateAsync({ file, embeddingProvider: embedding });
        notice = { id: ++counter.current, text: s.uploaded(file.name), failed: false };
      } catch (error) {
        const { title, message } = describeError(error);
        notice = { id: ++counter.current, text: s.uploadFailed(file.name, message ? `${title} ${message}` : title), failed: true };
      }
      setNotices((all) => [notice, ...all].slice(0, 5));
      onAnnounce(notice.text);
    }
    setBusy(null);
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    void send([...event.dataTransfer.files]);
  };

  return (
    <section className="ap-card ap-stack" aria-labelledby="kn-upload">
      <div
        className={`ap-dropzone${over ? ' ap-dropzone--over' : ''}`}
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <UploadIcon aria-hidden size={24} />
        <h2 id="kn-upload">{s.dropTitle}</h2>
        <p className="ap-muted">{s.dropBody}</p>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPT}
          className="ap-visually-hidden"
          aria-label={s.chooseLabel}
          tabIndex={-1}
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            void send(files);
          }}
        />
        <Button variant="primary" busy={!!busy} onClick={() => input.current?.click()}>
          {busy ? s.uploading(busy) : s.choose}
        </Button>
      </div>
      <div className="ap-field">
        <label htmlFor="kn-embedding">{s.embedding}</label>
        <select id="kn-embedding" className="ap-select" value={embedding} onChange={(e) => setEmbedding(e.target.value as EmbeddingProvider)} aria-describedby="kn-embedding-hint">
          {(Object.keys(s.embeddings) as EmbeddingProvider[]).map((p) => (
            <option key={p} value={p}>
              {s.embeddings[p]}
            </option>
          ))}
        </select>
        <p className="ap-field__hint" id="kn-embedding-hint">
          {s.embeddingHint}
        </p>
      </div>
      {notices.length ? (
        <ul className="ap-stack" aria-label="Uploads">
          {notices.map((n) => (
            <li key={n.id} className={n.failed ? 'ap-error-text' : 'ap-muted'}>
              {n.text}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
