import { type ReactNode, useState } from 'react';

/**
 * A button named `label` that opens `children` (given the function that closes them again): the
 * page of a test of where the focus goes when a dialog opens and closes.
 */
export function Opener({ label, children }: { label: string; children: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        {label}
      </button>
      {open ? children(() => setOpen(false)) : null}
    </>
  );
}
