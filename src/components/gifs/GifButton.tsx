import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Overlay } from '../../components/Overlay';
import { GifPicker } from './GifPicker';
import { useGifsEnabled } from './useGifs';
import './gifs.css';

interface GifButtonProps {
  /** The chosen GIF's download, handed over as the picker closes. */
  onSelect: (file: Promise<File>) => void;
  disabled?: boolean;
  className?: string;
}

/** Opens the GIF picker in the overlay; absent when the deployment has no GIF service. */
export function GifButton({ onSelect, disabled, className }: GifButtonProps) {
  const { t } = useTranslation('gifs');
  const enabled = useGifsEnabled();
  const [open, setOpen] = useState(false);
  if (!enabled) return null;
  return (
    <>
      <button type="button" className={className} disabled={disabled} onClick={() => setOpen(true)}>
        {t('open')}
      </button>
      {open && (
        <Overlay label={t('title')} className="gif-overlay" onClose={() => setOpen(false)}>
          <GifPicker
            onClose={() => setOpen(false)}
            onSelect={(file) => {
              setOpen(false);
              onSelect(file);
            }}
          />
        </Overlay>
      )}
    </>
  );
}
