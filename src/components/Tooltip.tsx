import { type ReactElement, cloneElement, useEffect, useId, useRef, useState } from 'react';
import { LIMITS } from '#core/limits';
import './Tooltip.css';

/**
 * A short text shown beside a control after LIMITS.tooltipDelayMs of hover or keyboard focus (the
 * full date of a relative time, the label of an icon button); a pointer passing over shows
 * nothing. While shown it describes the control (aria-describedby); Escape or leaving hides it.
 * A label that costs something to write may be given as a function, called only when shown.
 */
export function Tooltip({ label, children }: { label: string | (() => string); children: ReactElement<{ 'aria-describedby'?: string }> }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const show = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(true), LIMITS.tooltipDelayMs);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setOpen(false);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <span className="tooltip-anchor" onMouseEnter={show} onMouseLeave={hide} onFocus={show} onBlur={hide}>
      {cloneElement(children, open ? { 'aria-describedby': id } : {})}
      {open && (
        <span role="tooltip" id={id} className="tooltip">
          {typeof label === 'function' ? label() : label}
        </span>
      )}
    </span>
  );
}
