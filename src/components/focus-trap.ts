const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'summary',
  '[tabindex]:not([tabindex="-1"])',
  '[contenteditable="true"]',
].join(',');

/** The elements Tab reaches inside `container`, in order (hidden ones left out). */
export function focusableIn(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.hidden && el.getAttribute('aria-hidden') !== 'true' && !el.closest('[hidden],[inert]'),
  );
}

/**
 * Keeps Tab and Shift+Tab inside the container a modal layer draws: from the last control Tab goes to
 * the first, from the first Shift+Tab to the last, and focus that leaves (a click behind the layer is
 * not possible, but a script may move it) is brought back. Answers the function that releases it.
 */
export function trapFocus(getContainer: () => HTMLElement | null): () => void {
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Tab') return;
    const container = getContainer();
    if (!container) return;
    const items = focusableIn(container);
    if (items.length === 0) {
      event.preventDefault();
      container.focus();
      return;
    }
    const first = items[0]!;
    const last = items[items.length - 1]!;
    const active = document.activeElement;
    const inside = active instanceof Node && container.contains(active);
    if (!inside || active === container) {
      event.preventDefault();
      (event.shiftKey ? last : first).focus();
    } else if (event.shiftKey && active === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };
  document.addEventListener('keydown', onKey, true);
  return () => document.removeEventListener('keydown', onKey, true);
}

/** Remembers what has focus now; the answer gives it back (when it is still on the page). */
export function rememberFocus(): () => void {
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  return () => {
    if (opener && opener.isConnected && opener !== document.body) opener.focus();
  };
}
