import { useEffect, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';
import { MediaImg } from './MediaImg';
import './ImagePicker.css';

/** A local preview of a chosen file, released when it changes or the picker goes. */
export function useObjectUrl(file: Blob | null): string | null {
  const url = useMemo(() => (file && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  return url;
}

interface ImagePickerProps {
  /** What the picture is ("Group picture"): the field's label and the file input's name. */
  label: string;
  file: File | null;
  onFile: (file: File | null) => void;
  /** The picture there is now, shown until another is chosen. */
  currentUrl?: string | null;
}

/** A picture field: a round preview of the chosen (or current) picture and a button to choose one. */
export function ImagePicker({ label, file, onFile, currentUrl }: ImagePickerProps) {
  const { t } = useTranslation('common');
  const id = useId();
  const preview = useObjectUrl(file);
  const shown = preview ?? currentUrl ?? null;
  return (
    <div className="field image-picker">
      <span className="field__label" id={`${id}-label`}>
        {label}
      </span>
      <div className="image-picker__row">
        <span className="image-picker__preview" data-testid="image-picker-preview">
          {preview ? <img src={preview} alt="" /> : shown ? <MediaImg src={shown} alt="" /> : <Icon name="image" size={28} />}
        </span>
        <label className="button image-picker__choose">
          <input
            type="file"
            accept="image/*"
            className="visually-hidden"
            aria-labelledby={`${id}-label`}
            onChange={(event) => onFile(event.target.files?.[0] ?? null)}
          />
          <span aria-hidden="true">{shown ? t('picker.change') : t('picker.choose')}</span>
        </label>
        {file ? <span className="image-picker__name">{file.name}</span> : null}
      </div>
    </div>
  );
}
