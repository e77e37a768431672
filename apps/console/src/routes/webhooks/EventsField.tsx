import type { UseFormRegisterReturn } from 'react-hook-form';
import { EVENTS } from './queries';
import { s } from './strings';

/** The events to send, as a group of checkboxes. */
export function EventsField({ register, error }: { register: UseFormRegisterReturn; error?: string }) {
  return (
    <fieldset className="ap-webhooks-events" aria-describedby={error ? 'webhook-events-error' : undefined}>
      <legend>{s.events}</legend>
      {EVENTS.map((event) => (
        <label key={event}>
          <input type="checkbox" value={event} {...register} />
          <code>{event}</code>
        </label>
      ))}
      {error ? (
        <p id="webhook-events-error" className="ap-field__error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
