import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { ErrorKey } from '#core/errors';
import { LIMITS } from '#core/limits';
import { validatePostText, validateSlots } from '#core/validation';
import type { DraftImage, Slot } from '../../lib/db/db';
import { type DraftContent, draftKeys, emptyDraft, useDraft, useReturnedDrafts } from '../../lib/drafts/drafts';
import { queuePost } from '../../lib/outbox/outbox';
import { usePost } from '../../lib/query/posts';
import { toast } from '../../lib/toast';
import { PostCard } from '../../components/post/PostCard';
import { SlotInput } from '../../components/SlotInput';
import { GifButton } from '../../components/gifs/GifButton';
import { isPickedGif } from '../../components/gifs/gifs.api';
import './compose.css';

type Message = { ns: 'error' | 'compose'; key: string; values?: Record<string, string | number> };

function Thumbnails({ images, onRemove }: { images: DraftImage[]; onRemove: (index: number) => void }) {
  const { t } = useTranslation('compose');
  const urls = useMemo(() => images.map((i) => URL.createObjectURL(i.blob)), [images]);
  useEffect(() => () => urls.forEach((u) => URL.revokeObjectURL(u)), [urls]);
  if (images.length === 0) return null;
  return (
    <ul className="compose-images">
      {urls.map((url, i) => (
        <li key={url}>
          <img src={url} alt="" />
          <button type="button" aria-label={t('remove_image', { index: i + 1 })} onClick={() => onRemove(i)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The new-post form (/post), writing into the outbox; the route's RequireAuth guards it. */
export default function ComposePage() {
  const [params] = useSearchParams();
  const rep = params.get('rep');
  const author = params.get('author');
  const g = params.get('g');
  // One composer per reply target and preset group, each with its own draft.
  const key = draftKeys.post({ rep, g });
  return <Composer key={key} draftKey={key} rep={rep} author={author} g={g} />;
}

interface ComposerProps {
  draftKey: string;
  rep: string | null;
  author: string | null;
  g: string | null;
}

function Composer({ draftKey: key, rep, author, g }: ComposerProps) {
  const { t } = useTranslation('compose');
  const tError = useTranslation('error').t;
  const navigate = useNavigate();
  const [seed] = useState(
    (): DraftContent => ({ ...emptyDraft(), groups: g ? [{ query: g, id: null, locked: true }] : [] }),
  );
  const { ready, draft, update, clear, adopt } = useDraft(key, seed);
  const returned = useReturnedDrafts(key);
  const [localError, setError] = useState<Message | null>(null);
  const [posting, setPosting] = useState(false);
  const [focusSlot, setFocusSlot] = useState<string | null>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const original = usePost(rep);
  const maxImages = rep ? LIMITS.imagesPerComment : LIMITS.imagesPerPost;
  const groupsAllowed = !rep;

  // A reply is posted to the original's groups: preset them, locked.
  const originalGroups = original.post?.groups;
  useEffect(() => {
    if (!ready || !originalGroups) return;
    update((d) => {
      const missing = originalGroups.filter((og) => !d.groups.some((s) => s.locked && s.query === og.name));
      return missing.length ? { groups: [...d.groups, ...missing.map((og) => ({ query: og.name, id: og._id, locked: true }))] } : {};
    });
  }, [ready, originalGroups, update]);

  const originalFailed = !!rep && !!original.error && original.cached && !original.post;
  useEffect(() => {
    if (originalFailed) toast.error('error/original_post');
  }, [originalFailed]);


  const addSlot = useCallback(
    (kind: 'mentions' | 'groups') => {
      update((d) => {
        const limit = kind === 'mentions' ? LIMITS.mentionsPerPost : LIMITS.groupsPerPost;
        if (d[kind].length >= limit) {
          setError({ ns: 'error', key: kind === 'mentions' ? 'mentions_up_to' : 'groups_up_to' });
          return {};
        }
        setFocusSlot(`${kind}:${d[kind].length}`);
        return { [kind]: [...d[kind], { query: '', id: null }] };
      });
    },
    [update],
  );

  const onText = (value: string) => {
    let text = value;
    if (text.includes('@@')) {
      text = text.replace('@@', '');
      addSlot('mentions');
    }
    if (groupsAllowed && text.includes('&&')) {
      text = text.replace('&&', '');
      addSlot('groups');
    }
    update({ text, returnedError: undefined });
    if (localError) setError(null);
  };

  const setSlot = (kind: 'mentions' | 'groups', index: number, slot: Slot | null) => {
    update((d) => ({
      [kind]: slot ? d[kind].map((s, i) => (i === index ? slot : s)) : d[kind].filter((_, i) => i !== index),
    }));
    if (!slot) textRef.current?.focus();
  };

  const onFiles = (files: FileList | null) => {
    if (!files) return;
    const list = [...files];
    const images = list.filter((f) => f.type.startsWith('image/'));
    if (images.length < list.length) setError({ ns: 'compose', key: 'only_images' });
    // "Up to two images or a GIF": a picked GIF is attached alone, so photos replace it.
    const kept = draft.images.filter((i) => !isPickedGif(i));
    const room = Math.max(0, maxImages - kept.length);
    if (images.length > room) setError({ ns: 'compose', key: 'only_up_to', values: { count: maxImages } });
    const added = images.slice(0, room).map((f) => ({ blob: f as Blob, name: f.name }));
    if (added.length) update((d) => ({ images: [...d.images.filter((i) => !isPickedGif(i)), ...added] }));
  };

  const submit = async () => {
    if (posting) return;
    const mentions = draft.mentions.filter((s) => s.query.trim() !== '');
    const groups = draft.groups.filter((s) => s.query.trim() !== '');
    const problem: ErrorKey | null = validatePostText(draft.text) ?? validateSlots(mentions.map((s) => s.query), groups.map((s) => s.query));
    if (problem) {
      setError({ ns: 'error', key: problem });
      return;
    }
    setPosting(true);
    try {
      await queuePost({ text: draft.text, mentions, groups, replyingTo: rep, images: draft.images, draftKey: key });
      await clear();
      toast.info(navigator.onLine === false ? 'compose:saved_offline' : 'compose:queued');
      navigate('/');
    } catch (err) {
      console.error('queue post', err);
      setError({ ns: 'error', key: 'posting_failed' });
      setPosting(false);
    }
  };

  const error: Message | null = localError ?? (draft.returnedError ? { ns: 'error', key: draft.returnedError } : null);
  const heading = rep ? (author ? t('replying_to', { author }) : t('replying')) : t('new_post');
  const length = [...draft.text].length;
  const errorText = error
    ? error.ns === 'error'
      ? error.key === 'max_post_length'
        ? `${tError(error.key)} (${length}/${LIMITS.textMaxLength})`
        : tError(error.key)
      : t(error.key, error.values)
    : null;

  return (
    <section className="compose-page">
      <h1>{heading}</h1>
      {rep && original.post && <PostCard post={original.post} quoted />}
      <form
        className="composer"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label className="visually-hidden" htmlFor="compose-text">
          {t('text_label')}
        </label>
        <textarea
          id="compose-text"
          ref={textRef}
          value={draft.text}
          disabled={!ready}
          maxLength={LIMITS.textMaxLength}
          placeholder={t('text_placeholder')}
          aria-invalid={!!error}
          aria-describedby="compose-error compose-hint"
          rows={5}
          onChange={(e) => onText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void submit();
            }
          }}
        />
        <div className="compose-meta">
          <span id="compose-hint">{t('hint')}</span>
          <span>{t('length', { length, max: LIMITS.textMaxLength })}</span>
        </div>
        {(['mentions', 'groups'] as const).map((kind) =>
          draft[kind].length > 0 ? (
            <fieldset key={kind} className="compose-slots">
              <legend>{t(kind)}</legend>
              {draft[kind].map((slot, i) => (
                <SlotInput
                  key={`${kind}-${i}`}
                  kind={kind === 'mentions' ? 'mention' : 'group'}
                  slot={slot}
                  autoFocus={focusSlot === `${kind}:${i}`}
                  onChange={(s) => setSlot(kind, i, s)}
                  onRemove={() => setSlot(kind, i, null)}
                />
              ))}
            </fieldset>
          ) : null,
        )}
        <Thumbnails images={draft.images} onRemove={(index) => update((d) => ({ images: d.images.filter((_, i) => i !== index) }))} />
        <p id="compose-error" className="compose-error" role="alert">
          {draft.returnedError && error?.key === draft.returnedError
            ? t('returned', { reason: errorText })
            : errorText}
        </p>
        <div className="compose-toolbar">
          <button type="button" onClick={() => addSlot('mentions')}>
            @ {t('add_mention')}
          </button>
          {groupsAllowed && (
            <button type="button" onClick={() => addSlot('groups')}>
              &amp; {t('add_group')}
            </button>
          )}
          <label className="compose-attach">
            {t('attach_images')}
            <input
              type="file"
              accept="image/*"
              multiple={maxImages > 1}
              onChange={(e) => {
                onFiles(e.target.files);
                e.target.value = '';
              }}
            />
          </label>
          <GifButton disabled={!ready} onSelect={(file) => update({ images: [{ blob: file, name: file.name }] })} />
          <button type="submit" className="primary" disabled={!ready || posting}>
            {posting ? t('posting') : t('submit')}
          </button>
        </div>
      </form>
      {returned.length > 0 && (
        <aside className="returned-drafts">
          <h2>{t('returned_drafts')}</h2>
          <ul>
            {returned.map((d) => (
              <li key={d.key}>
                <span>{d.text.slice(0, 80)}</span>
                <button type="button" onClick={() => void adopt(d)}>
                  {t('restore')}
                </button>
              </li>
            ))}
          </ul>
        </aside>
      )}
    </section>
  );
}
