import { X } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { t } from '../lib/strings';

/**
 * A modal dialog on the browser's own `<dialog>` (`showModal()`): the page behind is inert, focus moves in
 * and back, Escape closes, and it is labelled by its title. (Radix's dialog was tried first: its scroll
 * lock injects a `<style>` element, which the console's CSP, styles from 'self' only, refuses.)
 */
export function Dialog({ open, onOpenChange, title, description, children }: { open: boolean; onOpenChange: (open: boolean) => void; title: string; description?: string; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="ap-dialog"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(e) => {
        e.preventDefault();
        onOpenChange(false);
      }}
      onClose={() => open && onOpenChange(false)}
    >
      {open ? (
        <>
          <div className="ap-dialog__header">
            <h2 id={titleId} className="ap-dialog__title">
              {title}
            </h2>
            <button type="button" className="ap-icon-button" aria-label={t.close} onClick={() => onOpenChange(false)}>
              <X aria-hidden size={18} />
            </button>
          </div>
          {description ? (
            <p id={descriptionId} className="ap-muted">
              {description}
            </p>
          ) : null}
          {children}
        </>
      ) : null}
    </dialog>
  );
}
