import { type ReactNode, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { rememberFocus, trapFocus } from './focus-trap';
import './Overlay.css';

let openCount = 0;
let saved: { overflow: string; paddingRight: string } | null = null;

/** Locks page scroll while at least one overlay is open, padding the body by the scrollbar width. */
export function lockScroll(): () => void {
  if (openCount++ === 0) {
    const body = document.body;
    const scrollbar = window.innerWidth - document.documentElement.clientWidth;
    saved = { overflow: body.style.overflow, paddingRight: body.style.paddingRight };
    const current = parseFloat(getComputedStyle(body).paddingRight) || 0;
    body.style.overflow = 'hidden';
    if (scrollbar > 0) body.style.paddingRight = `${current + scrollbar}px`;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--openCount === 0 && saved) {
      document.body.style.overflow = saved.overflow;
      document.body.style.paddingRight = saved.paddingRight;
      saved = null;
    }
  };
}

interface OverlayProps {
  children: ReactNode;
  onClose: () => void;
  /** The accessible name of the dialog. */
  label: string;
  className?: string;
  /** `alertdialog` for a question that interrupts the user (a confirmation). */
  role?: 'dialog' | 'alertdialog';
}

/**
 * The full-screen overlay layer: rendered into body, locks page scroll while open,
 * closes on Escape and on a click on the backdrop. Tab stays inside it while it is open, and the
 * control that opened it has the focus again when it closes.
 */
export function Overlay({ children, onClose, label, className, role = 'dialog' }: OverlayProps) {
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  // Read while rendering, before a control inside takes the focus with autoFocus on mounting.
  const [restore] = useState(rememberFocus);
  useEffect(() => {
    close.current = onClose;
  });

  useEffect(() => {
    const unlock = lockScroll();
    const release = trapFocus(() => panel.current);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close.current();
    };
    document.addEventListener('keydown', onKey);
    if (panel.current && !panel.current.contains(document.activeElement)) panel.current.focus();
    return () => {
      document.removeEventListener('keydown', onKey);
      release();
      unlock();
      restore();
    };
  }, [restore]);

  return createPortal(
    <div
      className="overlay"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) close.current();
      }}
    >
      <div
        ref={panel}
        className={['overlay__panel', className].filter(Boolean).join(' ')}
        role={role}
        aria-modal="true"
        aria-label={label}
        tabIndex={-1}
      >
        {children}
      </div>
    </div>,
    document.body,
  );
}
