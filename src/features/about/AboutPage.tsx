import { useTranslation } from 'react-i18next';
import { NetworkError } from '../../lib/api/client';
import { useInstance } from '../../lib/instance';
import { InstanceRules } from '../../components/InstanceRules';
import './about.css';

/** A text's paragraphs: blank lines part them; a single line break stays within one. */
const paragraphs = (text: string) => text.split(/\n\s*\n/u).filter((part) => part.trim() !== '');

/**
 * /about: what the instance says about itself, for everyone (visitors too): its name, description,
 * the longer text, the rules and the address to write to, as its moderators set them.
 */
export default function AboutPage() {
  const { t } = useTranslation(['instance', 'error']);
  const { value: instance, ready, error } = useInstance();
  if (!instance) {
    const status = error instanceof NetworkError ? t('not_offline') : ready && error ? t('error:loading_failed') : t('about.loading');
    return (
      <section className="about-page">
        <p className="about-page__status" role="status">
          {status}
        </p>
      </section>
    );
  }
  const said = instance.description || instance.about || instance.rules.length > 0 || instance.contact;
  return (
    <section className="about-page" aria-labelledby="about-title">
      <h1 id="about-title" className="about-page__title">
        {t('about.title', { name: instance.name })}
      </h1>
      {instance.description && <p className="about-page__lead">{instance.description}</p>}
      {paragraphs(instance.about).map((paragraph, index) => (
        <p key={index} className="about-page__text">
          {paragraph}
        </p>
      ))}
      {instance.rules.length > 0 && (
        <section aria-labelledby="about-rules">
          <h2 id="about-rules">{t('about.rules')}</h2>
          <InstanceRules rules={instance.rules} />
        </section>
      )}
      {instance.contact && (
        <section aria-labelledby="about-contact">
          <h2 id="about-contact">{t('about.contact')}</h2>
          <p>
            <a href={`mailto:${instance.contact}`}>{instance.contact}</a>
          </p>
        </section>
      )}
      {!said && <p className="about-page__status">{t('about.empty')}</p>}
    </section>
  );
}
