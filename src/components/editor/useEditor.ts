import { type RefObject, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorKey } from '#core/errors';
import { LIMITS } from '#core/limits';
import { storedLength } from '#core/text';
import { validateCommentText, validateContentWarning, validateImageAlt, validateImages, validatePostText, validateSlots } from '#core/validation';
import { errorKeyOf } from '../../lib/api/client';
import { type DraftImage, type Slot, getDb } from '../../lib/db/db';
import { type AskAccount, askServer, typedMentions } from '../../lib/mentions/typed-mentions';
import { type DraftContent, type UseDraft, useDraft } from '../../lib/drafts/drafts';
import { toast } from '../../lib/toast';
import { isPickedGif } from '../gifs/gifs.api';

/** A message under the editor: a shared error key, or the editor's own "only so many images". */
export type EditorMessage = { ns: 'error'; key: ErrorKey } | { ns: 'editor'; key: 'only_up_to'; count: number };

export type SlotKind = 'mentions' | 'groups';

/**
 * What is sent: the text, the slots with something typed in them, the images (each with its
 * description) and, when one was written, the content warning.
 */
export interface EditorContent {
  text: string;
  mentions: Slot[];
  groups: Slot[];
  images: DraftImage[];
  contentWarning?: string;
}

const slotLimit = (kind: SlotKind) => (kind === 'mentions' ? LIMITS.mentionsPerPost : LIMITS.groupsPerPost);
const SLOT_LIMIT_KEYS = { mentions: 'mentions_up_to', groups: 'groups_up_to' } as const satisfies Record<SlotKind, ErrorKey>;

/** The shared rules of each kind of text, and the error that reports it too long (shown with the count). */
const RULES = {
  post: { validate: validatePostText, tooLong: 'max_post_length' },
  comment: { validate: validateCommentText, tooLong: 'max_comment_length' },
} as const satisfies Record<string, { validate: (text: string) => ErrorKey | null; tooLong: ErrorKey }>;

export interface EditorOptions {
  /** The draft the editor autosaves into. */
  draftKey: string;
  /** Content of a draft not stored yet (keep the same object across renders). */
  seed?: DraftContent;
  /** Which shared rules the text must meet. */
  rules: keyof typeof RULES;
  /** How many images may be attached. */
  maxImages: number;
  /** Whether group slots can be added (`&&` or the button); groups preset in the draft show either way. */
  addGroups?: boolean;
  /** A picked GIF is attached alone: photos replace it, as it replaces them. */
  gifs?: boolean;
  /** Whether the author may put a content warning on it (posts). */
  contentWarnings?: boolean;
  /**
   * Says around the reason of a draft the server refused that this post was not published, or
   * that this edit was not saved; without it the reason is shown alone.
   */
  returnedNotice?: 'post' | 'edit';
  /** The text area (also given to `Editor`): focused again when a slot is removed. */
  textRef: RefObject<HTMLTextAreaElement | null>;
}

export interface EditorState extends Pick<UseDraft, 'ready' | 'draft' | 'update' | 'clear' | 'adopt'> {
  /** The slot to focus, as `<kind>:<index>`: the one just added. */
  focusSlot: string | null;
  canAddGroups: boolean;
  /** Whether a content warning may be set; it is on while the draft holds one (even empty). */
  canWarn: boolean;
  maxImages: number;
  /** The text's length in characters (code points), as the limit counts it. */
  length: number;
  /** The message to show under the editor, translated; null when there is none. */
  errorText: string | null;
  setError: (message: EditorMessage | null) => void;
  onText: (value: string) => void;
  addSlot: (kind: SlotKind) => void;
  /** Adds a slot for a chosen account or group, unless one holds it already (up to the limit). */
  addPicked: (kind: SlotKind, slot: Slot) => void;
  /** Replaces a slot, or removes it (null) and gives the focus back to the text. */
  setSlot: (kind: SlotKind, index: number, slot: Slot | null) => void;
  onFiles: (files: ArrayLike<File> | null) => void;
  removeImage: (index: number) => void;
  /** Describes the image at `index` (its alt text). */
  setAlt: (index: number, alt: string) => void;
  /** Switches the content warning on (empty, to be written) or off (gone). */
  toggleContentWarning: () => void;
  setContentWarning: (text: string) => void;
  /** Attaches a GIF once its download arrives; meanwhile the content is not handed over. */
  attachGif: (download: Promise<File>) => void;
  /** Media picked but still downloading. */
  mediaLoading: boolean;
  /**
   * The accounts the text names as `@name` that no slot holds yet, as slots: known locally, or
   * asked of the server when online. Null (with the reason shown) when they would pass the
   * limit of mentions.
   */
  typedMentions: () => Promise<Slot[] | null>;
  /**
   * The content to send, with `typed` among its mentions, or null (with the reason shown) when it
   * breaks the shared rules.
   */
  check: (typed?: Slot[]) => EditorContent | null;
}

/**
 * The state of a post or comment editor over its autosaved draft: `@@` in the text adds a mention
 * slot and `&&` a group slot (each up to its limit), images only and up to the limit, the message
 * under the editor (a local one first, else the reason a returned draft was refused).
 */
export function useEditor(options: EditorOptions): EditorState {
  const { draftKey, seed, rules, maxImages, addGroups = false, gifs = false, contentWarnings = false, returnedNotice, textRef } = options;
  const { t } = useTranslation(['editor', 'error']);
  const { ready, draft, update, clear, adopt } = useDraft(draftKey, seed);
  const [localError, setError] = useState<EditorMessage | null>(null);
  const [focusSlot, setFocusSlot] = useState<string | null>(null);
  const [downloads, setDownloads] = useState(0);

  const addSlot = useCallback(
    (kind: SlotKind) => {
      update((d) => {
        if (d[kind].length >= slotLimit(kind)) {
          setError({ ns: 'error', key: SLOT_LIMIT_KEYS[kind] });
          return {};
        }
        setFocusSlot(`${kind}:${d[kind].length}`);
        return { [kind]: [...d[kind], { query: '', id: null }] };
      });
    },
    [update],
  );

  const addPicked = useCallback(
    (kind: SlotKind, slot: Slot) => {
      update((d) => {
        if (d[kind].some((s) => (s.id !== null && s.id === slot.id) || s.query.toLowerCase() === slot.query.toLowerCase())) return {};
        if (d[kind].length >= slotLimit(kind)) {
          setError({ ns: 'error', key: SLOT_LIMIT_KEYS[kind] });
          return {};
        }
        return { [kind]: [...d[kind], slot] };
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
    if (addGroups && text.includes('&&')) {
      text = text.replace('&&', '');
      addSlot('groups');
    }
    update({ text, returnedError: undefined });
    if (localError) setError(null);
  };

  const setSlot = (kind: SlotKind, index: number, slot: Slot | null) => {
    update((d) => ({
      [kind]: slot ? d[kind].map((s, i) => (i === index ? slot : s)) : d[kind].filter((_, i) => i !== index),
    }));
    if (!slot) textRef.current?.focus();
  };

  // With GIFs, "up to two images or a GIF": a picked GIF is attached alone, so photos replace it.
  const photos = (images: DraftImage[]) => (gifs ? images.filter((i) => !isPickedGif(i)) : images);

  const onFiles = (files: ArrayLike<File> | null) => {
    if (!files) return;
    const list = Array.from(files);
    const images = list.filter((f) => f.type.startsWith('image/'));
    if (images.length < list.length) setError({ ns: 'error', key: 'only_images' });
    const room = Math.max(0, maxImages - photos(draft.images).length);
    if (images.length > room) setError({ ns: 'editor', key: 'only_up_to', count: maxImages });
    const added = images.slice(0, room).map((f) => ({ blob: f as Blob, name: f.name }));
    if (added.length) update((d) => ({ images: [...photos(d.images), ...added] }));
  };

  const attachGif = (download: Promise<File>) => {
    setDownloads((n) => n + 1);
    download
      .then(
        (file) => update({ images: [{ blob: file, name: file.name }] }),
        (err: unknown) => setError({ ns: 'error', key: errorKeyOf(err, 'loading_failed') }),
      )
      .finally(() => setDownloads((n) => n - 1));
  };

  const findTypedMentions = async (): Promise<Slot[] | null> => {
    const filled = draft.mentions.filter((s) => s.query.trim() !== '');
    // Offline, or when the server does not answer, a name not known here waits for the outbox.
    const ask: AskAccount | undefined = navigator.onLine === false ? undefined : (name) => askServer(name).catch(() => null);
    const typed = await typedMentions(getDb(), draft.text, filled, ask);
    if (filled.length + typed.length > LIMITS.mentionsPerPost) {
      setError({ ns: 'error', key: 'mentions_up_to' });
      return null;
    }
    if (typed.length > 0) update((d) => ({ mentions: [...d.mentions, ...typed] }));
    return typed;
  };

  const check = (typed: Slot[] = []): EditorContent | null => {
    // Sent now, the post would go without the media the user is waiting for.
    if (downloads > 0) {
      setError({ ns: 'error', key: 'wait_media' });
      toast.error('error/wait_media');
      return null;
    }
    const mentions = [...draft.mentions.filter((s) => s.query.trim() !== ''), ...typed];
    const groups = draft.groups.filter((s) => s.query.trim() !== '');
    const warning = contentWarnings ? draft.contentWarning?.trim() : undefined;
    const problem =
      RULES[rules].validate(draft.text) ??
      validateSlots(mentions.map((s) => s.query), groups.map((s) => s.query)) ??
      validateImages(draft.images.map((image) => ({ animated: gifs && isPickedGif(image) })), maxImages) ??
      draft.images.map((image) => validateImageAlt(image.alt)).find((p) => p !== null) ??
      validateContentWarning(warning);
    if (problem) {
      setError({ ns: 'error', key: problem });
      return null;
    }
    return { text: draft.text, mentions, groups, images: draft.images, ...(warning ? { contentWarning: warning } : {}) };
  };

  // Counted as the server counts: characters of the trimmed text.
  const length = storedLength(draft.text);
  // A draft the server refused comes back into its editor with the reason.
  const error: EditorMessage | null = localError ?? (draft.returnedError ? { ns: 'error', key: draft.returnedError } : null);
  const text = error
    ? error.ns === 'error'
      ? error.key === RULES[rules].tooLong
        ? `${t(error.key, { ns: 'error' })} (${length}/${LIMITS.textMaxLength})`
        : t(error.key, { ns: 'error' })
      : t(error.key, { count: error.count })
    : null;
  const returned = returnedNotice && draft.returnedError && error?.key === draft.returnedError;
  const errorText = returned ? t(returnedNotice === 'post' ? 'returned_post' : 'returned_edit', { reason: text ?? '' }) : text;

  return {
    ready,
    draft,
    update,
    clear,
    adopt,
    focusSlot,
    canAddGroups: addGroups,
    canWarn: contentWarnings,
    maxImages,
    length,
    errorText,
    setError,
    onText,
    addSlot,
    addPicked,
    setSlot,
    onFiles,
    removeImage: (index) => update((d) => ({ images: d.images.filter((_, i) => i !== index) })),
    setAlt: (index, alt) => {
      update((d) => ({ images: d.images.map((image, i) => (i === index ? { ...image, alt } : image)) }));
      if (localError) setError(null);
    },
    toggleContentWarning: () => update((d) => ({ contentWarning: d.contentWarning === undefined ? '' : undefined })),
    setContentWarning: (text) => {
      update({ contentWarning: text });
      if (localError) setError(null);
    },
    attachGif,
    mediaLoading: downloads > 0,
    typedMentions: findTypedMentions,
    check,
  };
}

/**
 * Sending an editor's content: one send at a time, and only content that passes the checks (the
 * reason shown otherwise). `send` queues it; a failure goes to `onFailure`. With `leaves`, a send
 * that succeeds leaves the editor busy (the page goes away), unless `send` answers that it stays.
 */
export function useEditorSend(
  editor: Pick<EditorState, 'check' | 'typedMentions'>,
  send: (content: EditorContent) => Promise<void | 'stays'>,
  onFailure: (err: unknown) => void,
  options: { leaves?: boolean } = {},
) {
  const [busy, setBusy] = useState(false);
  // A second press while the typed names are looked up must not send twice.
  const sending = useRef(false);
  const done = () => {
    sending.current = false;
    setBusy(false);
  };
  const submit = async () => {
    // What breaks the rules is told at once, before any name is looked up.
    if (busy || sending.current || !editor.check()) return;
    sending.current = true;
    setBusy(true);
    // Names typed as @name become mentions before the content leaves, checked again with them.
    const typed = await editor.typedMentions().catch((err: unknown) => {
      console.warn('typed mentions', err);
      return [];
    });
    const content = typed && editor.check(typed);
    if (!content) {
      done();
      return;
    }
    try {
      // A send that did not leave after all (the server refused it) frees the editor.
      if ((await send(content)) === 'stays' || !options.leaves) done();
    } catch (err) {
      onFailure(err);
      done();
    }
  };
  return { busy, submit };
}
