import { Send, Square } from 'lucide-react';
import { Button } from '../Button';

/**
 * Where a chat's next message is written: Enter sends (Shift+Enter is a new line), and while an answer streams
 * the button is Stop. Shared by the playground and the studio's debug chat; the labels are the caller's.
 */
export function Composer(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  onStop: () => void;
  streaming: boolean;
  rows?: number;
  sendLabel: string;
  stopLabel: string;
}) {
  return (
    <form
      className="ap-composer"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSend();
      }}
    >
      <div className="ap-field">
        <label htmlFor={props.id}>{props.label}</label>
        <textarea
          id={props.id}
          rows={props.rows ?? 3}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              props.onSend();
            }
          }}
        />
      </div>
      {props.streaming ? (
        <Button onClick={props.onStop}>
          <Square aria-hidden size={16} />
          {props.stopLabel}
        </Button>
      ) : (
        <Button type="submit" variant="primary" disabled={!props.value.trim()}>
          <Send aria-hidden size={16} />
          {props.sendLabel}
        </Button>
      )}
    </form>
  );
}
