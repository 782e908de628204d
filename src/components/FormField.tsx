import { type InputHTMLAttributes, useId } from 'react';
import { LIMITS } from '#core/limits';
import './FormField.css';

interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** Already translated error text shown under the input. */
  error?: string | null;
  hint?: string;
}

/** A labelled input with its error message wired to aria-describedby. */
export function FormField({ label, error, hint, id, className, ...input }: FormFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <input
        id={inputId}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface PasswordFieldProps extends Omit<FormFieldProps, 'type' | 'autoComplete'> {
  /**
   * `new`: a password being chosen or repeated, held to the forms' length and marked for the
   * password manager to suggest or save. `current`: the one in use, for it to fill in.
   */
  purpose: 'new' | 'current';
}

/** A password input of a form (sign-up, login, reset, the account's credentials). */
export function PasswordField({ purpose, ...field }: PasswordFieldProps) {
  return purpose === 'new' ? (
    <FormField type="password" autoComplete="new-password" maxLength={LIMITS.passwordFormMax} {...field} />
  ) : (
    <FormField type="password" autoComplete="current-password" {...field} />
  );
}
