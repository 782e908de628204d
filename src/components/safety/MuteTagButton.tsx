import { useTranslation } from 'react-i18next';
import { setSafety, useSafetyState } from './safety';
import './safety.css';

/** Mutes or unmutes a hashtag: its posts leave the caller's feeds (its own page still lists them). */
export function MuteTagButton({ tag }: { tag: string }) {
  const { t } = useTranslation('safety');
  const muted = useSafetyState('muteTag', tag);
  return (
    <div className="mute-tag">
      <button type="button" className="button" aria-pressed={muted} onClick={() => void setSafety('muteTag', tag, !muted)}>
        {t(muted ? 'unmute_tag' : 'mute_tag', { tag })}
      </button>
      {muted && <p className="mute-tag__note">{t('tag_muted_note', { tag })}</p>}
    </div>
  );
}
