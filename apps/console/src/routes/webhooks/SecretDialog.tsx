import { Button } from '../../components/Button';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';
import { s } from './strings';

/** A signing secret, shown once (after creating or rotating), copyable. */
export function SecretDialog({ title, secret, onClose }: { title: string; secret: string | null; onClose: () => void }) {
  return (
    <Dialog open={!!secret} onOpenChange={(open) => !open && onClose()} title={title} description={s.secretBody}>
      <div className="ap-field">
        <label htmlFor="webhook-secret">{s.secret}</label>
        <input id="webhook-secret" readOnly value={secret ?? ''} className="ap-code-input" onFocus={(e) => e.target.select()} />
      </div>
      <div className="ap-actions">
        <CopyButton value={secret ?? ''} />
        <Button variant="primary" onClick={onClose}>
          {s.done}
        </Button>
      </div>
    </Dialog>
  );
}
