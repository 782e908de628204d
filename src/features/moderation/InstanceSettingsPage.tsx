import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { INSTANCE_LIMITS, normalizeInstanceSettings, validateInstanceSettings } from '#core/instance-settings';
import { storedLength } from '#core/text';
import { AppLink } from '../../components/AppLink';
import { FormField } from '../../components/FormField';
import { PageHeader } from '../../components/PageHeader';
import { errorKeyOf } from '../../lib/api/client';
import { type InstanceSettings, useInstance, useSaveInstance } from '../../lib/instance';
import { useOnline } from '../../lib/online';
import { toast } from '../../lib/toast';
import './moderation-pages.css';

interface Values {
  name: string;
  description: string;
  about: string;
  /** One rule a line, as the field shows them. */
  rules: string;
  contact: string;
}

const valuesOf = (settings: InstanceSettings): Values => ({ ...settings, rules: settings.rules.join('\n') });

/** A text area with its label and a count of the characters it holds out of the most it takes. */
function TextArea({ label, value, max, rows, hint, onChange }: {
  label: string;
  value: string;
  max?: number;
  rows: number;
  hint?: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation('instance');
  const id = useId();
  const over = max !== undefined && storedLength(value) > max;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="field__input"
        rows={rows}
        value={value}
        aria-invalid={over ? true : undefined}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={`${id}-hint`} className={`field__hint${over ? ' field__hint--over' : ''}`}>
        {hint ?? t('settings.count', { count: storedLength(value), max })}
      </p>
    </div>
  );
}

/**
 * /moderation/instance: the instance's name, description, about text, rules and contact address,
 * as its moderators set them. Saved at once (online only, as every moderation action), checked
 * by the same rules as the server's.
 */
export default function InstanceSettingsPage() {
  const { t } = useTranslation('instance');
  const online = useOnline();
  const { value: instance } = useInstance();
  const save = useSaveInstance();
  const [values, setValues] = useState<Values | null>(null);
  const [busy, setBusy] = useState(false);

  // The form starts from the stored settings once they are read, and keeps what is typed after.
  useEffect(() => {
    if (instance && !values) setValues(valuesOf(instance));
  }, [instance, values]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!values) return;
    const body = normalizeInstanceSettings({ ...values, rules: values.rules.split('\n') });
    const problem = validateInstanceSettings(body);
    if (problem) {
      toast.error(`error/${problem}`);
      return;
    }
    setBusy(true);
    try {
      toast.info((await save(body)).message);
      setValues(null);
    } catch (err) {
      toast.error(`error/${errorKeyOf(err)}`);
    } finally {
      setBusy(false);
    }
  }

  const set = (field: keyof Values) => (value: string) => setValues((v) => (v ? { ...v, [field]: value } : v));

  return (
    <section className="moderation-page">
      <PageHeader title={t('settings.title')} heading fallback="/moderation" />
      {!online && <p className="moderation-offline moderation-section" role="status">{t('moderation:offline')}</p>}
      {values ? (
        <form className="instance-form" onSubmit={(event) => void submit(event)} noValidate>
          <FormField
            label={t('settings.name')}
            name="name"
            value={values.name}
            maxLength={INSTANCE_LIMITS.nameMax}
            autoComplete="off"
            hint={t('settings.name_hint')}
            onChange={(event) => set('name')(event.target.value)}
          />
          <TextArea label={t('settings.description')} value={values.description} max={INSTANCE_LIMITS.descriptionMax} rows={2} onChange={set('description')} />
          <TextArea label={t('settings.about')} value={values.about} max={INSTANCE_LIMITS.aboutMax} rows={8} onChange={set('about')} />
          <TextArea label={t('settings.rules')} value={values.rules} rows={6} hint={t('settings.rules_hint')} onChange={set('rules')} />
          <FormField
            label={t('settings.contact')}
            name="contact"
            type="email"
            autoComplete="email"
            value={values.contact}
            onChange={(event) => set('contact')(event.target.value)}
          />
          <button type="submit" className="button button--primary" disabled={!online || busy}>
            {t('settings.save')}
          </button>
          <AppLink to="/about">{t('settings.about_page')}</AppLink>
        </form>
      ) : (
        <p className="moderation-empty moderation-section">{t(online ? 'moderation:loading' : 'common:not_offline')}</p>
      )}
    </section>
  );
}
