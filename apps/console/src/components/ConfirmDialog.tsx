import { Button } from './Button';
import { Dialog } from './Dialog';
import { ErrorText } from './States';
import { t } from '../lib/strings';

/** Asks before something that cannot be undone; the confirm button names the action. */
export function ConfirmDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  onConfirm: () => void;
  busy?: boolean;
  error?: unknown;
}) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange} title={props.title} description={props.description}>
      <ErrorText error={props.error} />
      <div className="ap-actions">
        <Button onClick={() => props.onOpenChange(false)}>{t.cancel}</Button>
        <Button variant="danger" busy={props.busy} onClick={props.onConfirm}>
          {props.confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
