import { useState } from 'react';

/**
 * A form's text fields: their values, and what an input needs to edit one (`field(name)`: value
 * and onChange). `onEdit` runs on every edit (to clear the field's or the form's message).
 */
export function useFormValues<F extends string>(initial: Record<F, string>, onEdit?: (field: F) => void) {
  const [values, setValues] = useState(initial);
  const field = (name: F) => ({
    value: values[name],
    onChange: (event: { target: { value: string } }) => {
      setValues((v) => ({ ...v, [name]: event.target.value }));
      onEdit?.(name);
    },
  });
  const reset = () => setValues(initial);
  return { values, field, reset };
}

/**
 * A form's submit and its message: a failed check (a message key) is shown as the form's error;
 * otherwise `run` goes, busy meanwhile, and a failure shows `failure(err)`. With `leaves`, a run
 * that succeeds leaves the form busy (it is going away: a login, a password change).
 */
export function useSubmit(failure: (err: unknown) => string, options: { leaves?: boolean } = {}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (invalid: string | null | undefined, run: () => Promise<void>) => {
    if (invalid) {
      setError(invalid);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await run();
      if (!options.leaves) setBusy(false);
    } catch (err) {
      setError(failure(err));
      setBusy(false);
    }
  };
  return { error, setError, busy, submit };
}
