import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { INSTANCE_LIMITS, normalizeInstanceSettings, validateInstanceSettings } from '#core/instance-settings';
import { storedLength } from '#core/text';
import { AppLink } from '../../components/AppLink';
import { FormField, TextAreaField } from '../../components/FormField';
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
  const over = max !== undefined && storedLength(value) > max;
  return (
    <TextAreaField
      label={label}
      className={over ? 'field--over' : undefined}
      hint={hint ?? t('settings.count', { count: storedLength(value), max })}
      rows={rows}
      value={value}
      aria-invalid={over ? true : undefined}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** The form, starting from the settings as stored when it opened, keeping what is typed after. */
function SettingsForm({ initial, onSaved }: { initial: InstanceSettings; onSaved: (saved: InstanceSettings) => void }) {
  const { t } = useTranslation('instance');
  const online = useOnline();
  const save = useSaveInstance();
  const [values, setValues] = useState<Values>(() => valuesOf(initial));
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = normalizeInstanceSettings({ ...values, rules: values.rules.split('\n') });
    const problem = validateInstanceSettings(body);
    if (problem) {
      toast.error(`error/${problem}`);
      return;
    }
    setBusy(true);
    try {
      const reply = await save(body);
      toast.info(reply.message);
      onSaved(reply.instance);
    } catch (err) {
      toast.error(`error/${errorKeyOf(err)}`);
    } finally {
      setBusy(false);
    }
  }

  const set = (field: keyof Values) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  return (
    <form className="instance-form" onSubmit={(event) => void submit(event)} noValidate>
      <FormField
        label={t('settings.name')}
        hint={t('settings.name_hint')}
        name="name"
        autoComplete="off"
        maxLength={INSTANCE_LIMITS.nameMax}
        value={values.name}
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
  );
}

/**
 * /moderation/instance: the instance's name, description, about text, rules and contact address,
 * as its moderators set them. Saved at once (online only, as every moderation action), checked
 * by the same rules as the server's; after a save the form starts again from what the server kept.
 */
export default function InstanceSettingsPage() {
  const { t } = useTranslation(['instance', 'moderation']);
  const online = useOnline();
  const { value: instance } = useInstance();
  // The settings as the last save left them (the stored copy follows a moment later), and how many saves.
  const [saved, setSaved] = useState<{ count: number; instance: InstanceSettings } | null>(null);
  const initial = saved?.instance ?? instance;

  return (
    <section className="moderation-page">
      <PageHeader title={t('settings.title')} heading fallback="/moderation" />
      {!online && <p className="moderation-offline moderation-section" role="status">{t('moderation:offline')}</p>}
      {initial ? (
        <SettingsForm key={saved?.count ?? 0} initial={initial} onSaved={(settings) => setSaved((last) => ({ count: (last?.count ?? 0) + 1, instance: settings }))} />
      ) : (
        <p className="moderation-empty moderation-section">{online ? t('moderation:loading') : t('not_offline')}</p>
      )}
    </section>
  );
}
