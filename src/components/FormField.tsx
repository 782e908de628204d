import { type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes, useId } from 'react';
import { LIMITS } from '#core/limits';
import './FormField.css';

interface FieldFrame {
  label: string;
  /** Already translated error text shown under the control. */
  error?: string | null;
  hint?: string;
  id?: string;
  className?: string;
}

interface FormFieldProps extends FieldFrame, Omit<InputHTMLAttributes<HTMLInputElement>, keyof FieldFrame> {}

/** What the control of a field carries: its id and the error and hint wired to aria-describedby. */
type ControlProps = { id: string; className: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined };

/** A labelled control (an input, a text area, a select) with its hint and error message. */
export function Field({ label, error, hint, id, className, control }: FieldFrame & { control: (props: ControlProps) => ReactNode }) {
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
      {control({ id: inputId, className: 'field__input', 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
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

/** A labelled input with its error message wired to aria-describedby. */
export function FormField({ label, error, hint, id, className, ...input }: FormFieldProps) {
  return <Field label={label} error={error} hint={hint} id={id} className={className} control={(props) => <input {...props} {...input} />} />;
}

interface TextAreaFieldProps extends FieldFrame, Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, keyof FieldFrame> {}

/** A labelled text area, as FormField. */
export function TextAreaField({ label, error, hint, id, className, ...area }: TextAreaFieldProps) {
  return <Field label={label} error={error} hint={hint} id={id} className={className} control={(props) => <textarea {...props} {...area} />} />;
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
