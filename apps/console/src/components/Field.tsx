import { forwardRef, useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';

interface FieldProps {
  label: string;
  /** The API's (or the form's) message for this field, shown under it and announced. */
  error?: string;
  hint?: ReactNode;
}

/** A labelled text input with its hint and error, wired for screen readers. */
export const Field = forwardRef<HTMLInputElement, FieldProps & InputHTMLAttributes<HTMLInputElement>>(function Field({ label, error, hint, id, ...rest }, ref) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className="ap-field">
      <label htmlFor={inputId}>{label}</label>
      <input ref={ref} id={inputId} aria-invalid={error ? true : undefined} aria-describedby={describedBy(inputId, hint, error)} {...rest} />
      {hint ? <p className="ap-field__hint" id={`${inputId}-hint`}>{hint}</p> : null}
      {error ? <p className="ap-field__error" id={`${inputId}-error`} role="alert">{error}</p> : null}
    </div>
  );
});

/** A labelled multi-line input. */
export const TextArea = forwardRef<HTMLTextAreaElement, FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>>(function TextArea({ label, error, hint, id, ...rest }, ref) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className="ap-field">
      <label htmlFor={inputId}>{label}</label>
      <textarea ref={ref} id={inputId} aria-invalid={error ? true : undefined} aria-describedby={describedBy(inputId, hint, error)} {...rest} />
      {hint ? <p className="ap-field__hint" id={`${inputId}-hint`}>{hint}</p> : null}
      {error ? <p className="ap-field__error" id={`${inputId}-error`} role="alert">{error}</p> : null}
    </div>
  );
});

function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}
