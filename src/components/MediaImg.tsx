import type { ImgHTMLAttributes, SyntheticEvent } from 'react';
import { useMediaSource } from '../lib/media-url';

type MediaImgProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'onError'> & {
  /** The media URL as the server names it (`/media/...`); other URLs (blob:) show as they are. */
  src: string | undefined;
  /** Called when the image fails from every host (the content host, then the app's /media). */
  onError?: (event: SyntheticEvent<HTMLImageElement>) => void;
};

/** An <img> of app media: from the content host when there is one, falling back once to /media. */
export function MediaImg({ src: url, onError, alt = '', ...rest }: MediaImgProps) {
  const media = useMediaSource(url);
  return (
    <img
      {...rest}
      alt={alt}
      src={media.src}
      onError={(event) => {
        if (!media.onError()) onError?.(event);
      }}
    />
  );
}
