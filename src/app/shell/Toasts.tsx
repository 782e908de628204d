import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '#core/limits';
import { translateMessage } from '../../lib/i18n';
import { dismissToast, getToasts, subscribeToasts, type Toast } from '../../lib/toast';
import './Toasts.css';

function ToastItem({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const [leaving, setLeaving] = useState(false);

  // Slide in (1 s), stay about 3 s, slide out (1 s), then leave the store.
  useEffect(() => {
    const out = setTimeout(() => setLeaving(true), LIMITS.toastSlideMs + LIMITS.toastMs);
    const gone = setTimeout(() => dismissToast(toast.id), 2 * LIMITS.toastSlideMs + LIMITS.toastMs);
    return () => {
      clearTimeout(out);
      clearTimeout(gone);
    };
  }, [toast.id]);

  return (
    <div
      className={`toast toast--${toast.kind}${leaving ? ' toast--leaving' : ''}`}
      role={toast.kind === 'error' ? 'alert' : 'status'}
      data-kind={toast.kind}
    >
      {translateMessage(t, toast.message, toast.values)}
    </div>
  );
}

/** Renders the toast store (src/lib/toast.ts) at the bottom, clear of the controls that stay on screen. */
export function Toasts() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
