import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { LIMITS } from '#core/limits';
import { postImagesMax } from '#core/validation';
import { type DraftContent, draftKeys, emptyDraft, useReturnedDrafts } from '../../lib/drafts/drafts';
import { queuePost } from '../../lib/outbox/kinds/post';
import { outboxAnswer } from '../../lib/outbox/answer';
import { clearDraft, loadDraft } from '../../lib/drafts/store';
import { SHARED_PARAM, takeShare } from '../../lib/share/shared-items';
import { usePost, usePostGroups } from '../../lib/query/posts';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { PostCard } from '../../components/post/PostCard';
import { Editor } from '../../components/editor/Editor';
import { useEditor, useEditorSend } from '../../components/editor/useEditor';
import { GifButton } from '../../components/gifs/GifButton';
import { useCoarsePointer } from '../../components/useMediaQuery';
import './compose.css';

/** The new-post form (/post), writing into the outbox; the route's RequireAuth guards it. */
export default function ComposePage() {
  const [params] = useSearchParams();
  const rep = params.get('rep');
  const author = params.get('author');
  const g = params.get('g');
  // One composer per reply target and preset group, each with its own draft.
  const key = draftKeys.post({ rep, g });
  return <Composer key={key} draftKey={key} rep={rep} author={author} g={g} shared={params.has(SHARED_PARAM)} />;
}

interface ComposerProps {
  draftKey: string;
  rep: string | null;
  author: string | null;
  g: string | null;
  /** Opened by sharing from another app: what was shared waits to be taken into the draft. */
  shared: boolean;
}

function Composer({ draftKey: key, rep, author, g, shared }: ComposerProps) {
  const { t } = useTranslation('compose');
  const navigate = useNavigate();
  const [seed] = useState(
    (): DraftContent => ({ ...emptyDraft(), groups: g ? [{ query: g, id: null, locked: true }] : [] }),
  );
  const textRef = useRef<HTMLTextAreaElement>(null);
  const editor = useEditor({
    draftKey: key,
    seed,
    rules: 'post',
    maxImages: postImagesMax(!!rep),
    // A reply goes to the original's groups (preset below), and to no others.
    addGroups: !rep,
    gifs: true,
    contentWarnings: true,
    returnedNotice: 'post',
    textRef,
  });
  const { ready, update, adopt, onFiles } = editor;
  const returned = useReturnedDrafts(key);
  const original = usePost(rep);

  // A reply is posted to the original's groups (those the caller may see): preset them, locked.
  const originalGroups = usePostGroups(rep);
  useEffect(() => {
    if (!ready || !originalGroups) return;
    update((d) => {
      const missing = originalGroups.filter((name) => !d.groups.some((s) => s.locked && s.query === name));
      return missing.length ? { groups: [...d.groups, ...missing.map((name) => ({ query: name, id: null, locked: true }))] } : {};
    });
  }, [ready, originalGroups, update]);

  // What another app shared joins the draft (after any text already there) and is saved with it,
  // so it survives going offline or closing the app; images beyond the post's limit are refused
  // with the composer's own message.
  const shareTaken = useRef(false);
  useEffect(() => {
    if (!shared || !ready || shareTaken.current) return;
    shareTaken.current = true;
    takeShare().then(
      (item) => {
        if (!item) return;
        if (item.text) update((d) => ({ text: d.text.trim() ? `${d.text}\n${item.text}` : item.text }));
        if (item.images.length) onFiles(item.images.map((image) => new File([image.blob], image.name, { type: image.blob.type })));
      },
      (err: unknown) => console.warn('share', err),
    );
  }, [shared, ready, update, onFiles]);

  const originalFailed = !!rep && !!original.error && original.cached && !original.post;
  useEffect(() => {
    if (originalFailed) toast.error('error/original_post');
  }, [originalFailed]);

  // A queued post leaves the page for the feed: the editor stays busy until it goes. Online, the
  // server's answer is awaited briefly, so a refusal comes back here with its reason (and its toast)
  // rather than later elsewhere; offline, or when the answer is slow, the outbox sends it.
  const { busy: posting, submit } = useEditorSend(
    editor,
    async (content) => {
      const offline = navigator.onLine === false;
      const row = await queuePost({ ...content, replyingTo: rep, draftKey: key });
      await editor.clear();
      const answer = offline ? 'waiting' : await outboxAnswer(row.seq!, LIMITS.postAnswerWaitMs);
      if (answer === 'left') {
        // Refused, the post came back as a draft: here, or beside newer work written meanwhile.
        const beside = `${key}#${row.clientId}`;
        const returned = [await loadDraft(key), await loadDraft(beside)].find((draft) => draft?.returnedError);
        if (returned) {
          const { key: at, updatedAt: _updatedAt, ...draft } = returned;
          update(draft);
          if (at === beside) await clearDraft(beside);
          return 'stays';
        }
      }
      toast.info(offline ? 'compose:saved_offline' : answer === 'left' ? 'compose:posted' : 'compose:queued');
      navigate('/');
    },
    (err) => {
      console.error('queue post', err);
      editor.setError({ ns: 'error', key: 'posting_failed' });
    },
    { leaves: true },
  );

  const heading = rep ? (author ? t('replying_to', { author }) : t('replying')) : t('new_post');
  // A reply names both ends: whom it answers (the heading) and the account it is sent from.
  const me = useSession().username;
  // Ctrl+Enter means nothing on a touch screen.
  const touch = useCoarsePointer();

  return (
    <section className="compose-page">
      <h1>{heading}</h1>
      {rep && me && <p className="compose-from">{t('replying_from', { username: me })}</p>}
      {rep && original.post && <PostCard post={original.post} quoted />}
      <Editor
        editor={editor}
        textRef={textRef}
        className="compose"
        rows={5}
        hint={touch ? undefined : t('hint')}
        labels={{
          text: t('text_label'),
          placeholder: t('text_placeholder'),
          addMention: t('add_mention'),
          groups: t('groups'),
          addGroup: t('add_group'),
          attach: t('attach_images'),
          removeImage: (index) => t('remove_image', { index }),
          submit: posting ? t('posting') : t('submit'),
        }}
        busy={posting}
        onSubmit={() => void submit()}
        tools={<GifButton className="link-button" disabled={!ready} onSelect={editor.attachGif} />}
      />
      {returned.length > 0 && (
        <aside className="returned-drafts">
          <h2>{t('returned_drafts')}</h2>
          <ul>
            {returned.map((d) => (
              <li key={d.key}>
                <span>{d.text.slice(0, 80)}</span>
                <button type="button" className="link-button" onClick={() => void adopt(d)}>
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
