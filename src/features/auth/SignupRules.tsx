import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../components/AppLink';
import { InstanceRules } from '../../components/InstanceRules';
import type { InstanceSettings } from '../../lib/instance';

/**
 * The instance's rules on the sign-up form, with the box that accepts them (the server refuses a
 * sign-up without it while there are rules). Nothing while the instance has none.
 */
export function SignupRules({ instance, accepted, onAccept, error }: {
  instance: InstanceSettings | undefined;
  accepted: boolean;
  onAccept: (accepted: boolean) => void;
  error: string | null;
}) {
  const { t } = useTranslation('instance');
  const id = useId();
  if (!instance || instance.rules.length === 0) return null;
  return (
    <fieldset className="auth__rules">
      <legend>{t('signup.rules_title', { name: instance.name })}</legend>
      <InstanceRules rules={instance.rules} id={`${id}-rules`} />
      <label className="auth__accept">
        <input
          type="checkbox"
          name="acceptRules"
          checked={accepted}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={[`${id}-rules`, error ? `${id}-error` : null].filter(Boolean).join(' ')}
          onChange={(event) => onAccept(event.target.checked)}
        />
        {t('signup.accept')}
      </label>
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
      <AppLink to="/about">{t('signup.more', { name: instance.name })}</AppLink>
    </fieldset>
  );
}
