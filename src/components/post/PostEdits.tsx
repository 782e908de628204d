import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Post } from '../../lib/api/types';
import type { DraftContent } from '../../lib/drafts/store';
import { draftKeys } from '../../lib/drafts/store';
import { queueEdit } from '../../lib/outbox/kinds/edit';
import { usePostHistory } from '../../lib/query/posts';
import { toast } from '../../lib/toast';
import { Editor } from '../editor/Editor';
import { useEditor, useEditorSend } from '../editor/useEditor';
import { Overlay } from '../Overlay';
import { PostText } from './PostText';
import { RelativeTime } from '../RelativeTime';
import './post-edits.css';

/** The post as the editor starts from it: its text, mentions and warning (never its groups or images). */
const seedOf = (post: Post): DraftContent => ({
  text: post.text,
  mentions: post.mentions.map((m) => ({ query: m.username, id: m._id })),
  groups: [],
  images: [],
  ...(post.contentWarning ? { contentWarning: post.contentWarning } : {}),
});

/**
 * Editing a post's text in the shared editor, prefilled with the post (or with an edit the server
 * refused, which came back to this editor's draft). Saving queues the edit in the outbox and shows
 * the new text at once, online or not.
 */
export function PostEditDialog({ post, onClose }: { post: Post; onClose: () => void }) {
  const { t } = useTranslation('edits');
  const textRef = useRef<HTMLTextAreaElement>(null);
  const seed = useMemo(() => seedOf(post), [post]);
  const editor = useEditor({
    draftKey: draftKeys.edit(post._id),
    seed,
    rules: 'post',
    maxImages: 0,
    contentWarnings: true,
    returnedNotice: 'edit',
    textRef,
  });
  const { busy, submit } = useEditorSend(
    editor,
    async ({ text, mentions, contentWarning }) => {
      await queueEdit({ postId: post._id, text, mentions, ...(contentWarning ? { contentWarning } : {}) });
      await editor.clear();
      toast.info(navigator.onLine === false ? 'edits:saved_offline' : 'edits:saved');
      onClose();
    },
    (err) => {
      console.error('queue edit', err);
      editor.setError({ ns: 'error', key: 'posting_failed' });
    },
    { leaves: true },
  );
  const cancel = () => {
    void editor.clear();
    onClose();
  };
  return (
    <Overlay label={t('title')} onClose={cancel} className="post-edit-dialog">
      <h2 className="post-edit-title">{t('title')}</h2>
      <Editor
        editor={editor}
        textRef={textRef}
        className="post-edit"
        rows={5}
        busy={busy}
        onSubmit={() => void submit()}
        labels={{
          text: t('label'),
          placeholder: t('placeholder'),
          addMention: t('add_mention'),
          attach: '',
          removeImage: () => '',
          submit: t('save'),
        }}
        tools={
          <button type="button" className="button" onClick={cancel}>
            {t('cancel')}
          </button>
        }
      />
    </Overlay>
  );
}

/** A post's earlier versions, newest first, each with when it was written; read offline once seen. */
export function PostHistoryDialog({ post, onClose }: { post: Post; onClose: () => void }) {
  const { t } = useTranslation('edits');
  const versions = usePostHistory(post._id, post.editedAt);
  return (
    <Overlay label={t('history_title')} onClose={onClose} className="post-history-dialog">
      <h2 className="post-edit-title">{t('history_title')}</h2>
      {versions === undefined ? (
        <p role="status">{t('history_loading')}</p>
      ) : versions.length === 0 ? (
        <p>{t('history_empty')}</p>
      ) : (
        <ol className="post-history">
          {versions.map((version) => (
            <li key={version.replacedAt} className="post-history-version">
              <p className="post-history-time">
                {t('written')} <RelativeTime time={version.writtenAt} />
              </p>
              {version.contentWarning && (
                <p className="post-history-warning">
                  {t('content_warning')}: {version.contentWarning}
                </p>
              )}
              <div className="post-text">
                <PostText text={version.text} />
              </div>
            </li>
          ))}
        </ol>
      )}
      <div className="post-edit-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          {t('close')}
        </button>
      </div>
    </Overlay>
  );
}
