import { type RefObject, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ErrorKey } from '#core/errors';
import { LIMITS } from '#core/limits';
import { validateCommentText, validateSlots } from '#core/validation';
import type { Slot } from '../../lib/db/db';
import { draftKeys, useDraft } from '../../lib/drafts/drafts';
import { queueComment } from '../../lib/outbox/outbox';
import { useSession } from '../../lib/session';
import { SlotInput } from '../../components/SlotInput';

type Message = { ns: 'error' | 'comments'; key: string; values?: Record<string, string | number> };

interface Props {
  /** The post or comment replied to. */
  parentId: string;
  /** The thread's post. */
  postId: string;
  autoFocus?: boolean;
  /** Called once the comment is in the outbox. */
  onQueued?: () => void;
  inputRef?: RefObject<HTMLTextAreaElement | null>;
}

function Thumbnail({ blob, onRemove }: { blob: Blob; onRemove: () => void }) {
  const { t } = useTranslation('comments');
  const url = useMemo(() => URL.createObjectURL(blob), [blob]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return (
    <div className="comment-box-image">
      <img src={url} alt="" />
      <button type="button" aria-label={t('box.remove_image')} onClick={onRemove}>
        ×
      </button>
    </div>
  );
}

/**
 * The comment box: text (512 characters, 32 lines), mention slots (@@ adds one),
 * one image. The text autosaves as a draft per parent; sending puts the comment in the outbox,
 * so it shows at once as pending.
 */
export function CommentBox({ parentId, postId, autoFocus, onQueued, inputRef }: Props) {
  const { t } = useTranslation('comments');
  const tError = useTranslation('error').t;
  const { isLoggedIn } = useSession();
  const key = draftKeys.comment(parentId);
  const { ready, draft, update, clear } = useDraft(key);
  const [error, setError] = useState<Message | null>(null);
  const [sending, setSending] = useState(false);
  const [focusSlot, setFocusSlot] = useState<number | null>(null);
  const ownRef = useRef<HTMLTextAreaElement>(null);
  const textRef = inputRef ?? ownRef;
  const id = useId();

  useEffect(() => {
    if (autoFocus && ready) textRef.current?.focus();
  }, [autoFocus, ready, textRef]);


  const addMention = useCallback(() => {
    update((d) => {
      if (d.mentions.length >= LIMITS.mentionsPerPost) {
        setError({ ns: 'error', key: 'mentions_up_to' });
        return {};
      }
      setFocusSlot(d.mentions.length);
      return { mentions: [...d.mentions, { query: '', id: null }] };
    });
  }, [update]);

  if (!isLoggedIn) {
    return (
      <p className="comment-box-login">
        <Link to="/login">{t('box.login')}</Link>
      </p>
    );
  }

  const onText = (value: string) => {
    let text = value;
    if (text.includes('@@')) {
      text = text.replace('@@', '');
      addMention();
    }
    update({ text, returnedError: undefined });
    if (error) setError(null);
  };

  const setSlot = (index: number, slot: Slot | null) => {
    update((d) => ({ mentions: slot ? d.mentions.map((s, i) => (i === index ? slot : s)) : d.mentions.filter((_, i) => i !== index) }));
    if (!slot) textRef.current?.focus();
  };

  const onFiles = (files: FileList | null) => {
    if (!files) return;
    const list = [...files];
    const images = list.filter((f) => f.type.startsWith('image/'));
    if (images.length < list.length) setError({ ns: 'comments', key: 'box.only_images' });
    const room = Math.max(0, LIMITS.imagesPerComment - draft.images.length);
    if (images.length > room) setError({ ns: 'comments', key: 'box.only_up_to', values: { count: LIMITS.imagesPerComment } });
    const added = images.slice(0, room).map((f) => ({ blob: f as Blob, name: f.name }));
    if (added.length) update((d) => ({ images: [...d.images, ...added] }));
  };

  const submit = async () => {
    if (sending) return;
    const mentions = draft.mentions.filter((s) => s.query.trim() !== '');
    const problem: ErrorKey | null = validateCommentText(draft.text) ?? validateSlots(mentions.map((s) => s.query), []);
    if (problem) {
      setError({ ns: 'error', key: problem });
      return;
    }
    setSending(true);
    try {
      await queueComment({ text: draft.text, parent: parentId, postId, mentions, images: draft.images, draftKey: key });
      await clear();
      setError(null);
      onQueued?.();
    } catch (err) {
      // A comment that could not even be queued is only logged; the text stays in the box.
      console.error('queue comment', err);
    } finally {
      setSending(false);
    }
  };

  const length = [...draft.text].length;
  // A comment the server refused comes back into its box with the reason.
  const shown: Message | null = error ?? (draft.returnedError ? { ns: 'error', key: draft.returnedError } : null);
  const errorText = shown
    ? shown.ns === 'error'
      ? shown.key === 'max_comment_length'
        ? `${tError(shown.key)} (${length}/${LIMITS.textMaxLength})`
        : tError(shown.key)
      : t(shown.key, shown.values)
    : null;

  return (
    <form
      className="comment-box"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label className="visually-hidden" htmlFor={`${id}-text`}>
        {parentId === postId ? t('box.label') : t('box.reply_label')}
      </label>
      <textarea
        id={`${id}-text`}
        ref={textRef}
        value={draft.text}
        disabled={!ready}
        maxLength={LIMITS.textMaxLength}
        rows={2}
        placeholder={parentId === postId ? t('box.placeholder') : t('box.reply_placeholder')}
        aria-invalid={!!errorText}
        aria-describedby={`${id}-error`}
        onChange={(e) => onText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void submit();
          }
        }}
      />
      {draft.mentions.length > 0 && (
        <fieldset className="comment-box-slots">
          <legend>{t('box.mentions')}</legend>
          {draft.mentions.map((slot, i) => (
            <SlotInput
              key={i}
              kind="mention"
              slot={slot}
              autoFocus={focusSlot === i}
              onChange={(s) => setSlot(i, s)}
              onRemove={() => setSlot(i, null)}
            />
          ))}
        </fieldset>
      )}
      {draft.images.map((image, i) => (
        <Thumbnail key={i} blob={image.blob} onRemove={() => update((d) => ({ images: d.images.filter((_, j) => j !== i) }))} />
      ))}
      <p id={`${id}-error`} className="comment-box-error" role="alert">
        {errorText}
      </p>
      <div className="comment-box-toolbar">
        <span className="comment-box-length">{t('box.length', { length, max: LIMITS.textMaxLength })}</span>
        <button type="button" className="link-button" onClick={addMention}>
          @ {t('box.add_mention')}
        </button>
        <label className="comment-box-attach">
          {t('box.attach_image')}
          <input
            type="file"
            accept="image/*"
            className="visually-hidden"
            onChange={(e) => {
              onFiles(e.target.files);
              e.target.value = '';
            }}
          />
        </label>
        <button type="submit" className="button button--primary" disabled={!ready || sending}>
          {t('box.submit')}
        </button>
      </div>
    </form>
  );
}
