import { type RefObject, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LIMITS } from '#core/limits';
import { draftKeys } from '../../lib/drafts/drafts';
import { queueComment } from '../../lib/outbox/kinds/comment';
import { useSession } from '../../lib/session';
import { Editor } from '../../components/editor/Editor';
import { useEditor, useEditorSend } from '../../components/editor/useEditor';
import './comments.css';
import { useLoginLink } from '../../components/login-return';

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

/**
 * The comment box: text (512 characters, 32 lines), mention slots (@@ adds one),
 * one image. The text autosaves as a draft per parent; sending puts the comment in the outbox,
 * so it shows at once as pending.
 */
export function CommentBox({ parentId, postId, autoFocus, onQueued, inputRef }: Props) {
  const { t } = useTranslation('comments', { keyPrefix: 'box' });
  const loginLink = useLoginLink();
  const { isLoggedIn } = useSession();
  const key = draftKeys.comment(parentId);
  const ownRef = useRef<HTMLTextAreaElement>(null);
  const textRef = inputRef ?? ownRef;
  const editor = useEditor({ draftKey: key, rules: 'comment', maxImages: LIMITS.imagesPerComment, textRef });
  const { ready } = editor;
  const { busy: sending, submit } = useEditorSend(
    editor,
    async ({ text, mentions, images }) => {
      await queueComment({ text, parent: parentId, postId, mentions, images, draftKey: key });
      await editor.clear();
      editor.setError(null);
      onQueued?.();
    },
    // A comment that could not even be queued is only logged; the text stays in the box.
    (err) => console.error('queue comment', err),
  );

  useEffect(() => {
    if (autoFocus && ready) textRef.current?.focus();
  }, [autoFocus, ready, textRef]);

  if (!isLoggedIn) {
    return (
      <p className="comment-box-login">
        <Link to={loginLink}>{t('login')}</Link>
      </p>
    );
  }

  const toPost = parentId === postId;
  return (
    <Editor
      editor={editor}
      textRef={textRef}
      className="comment-box"
      rows={2}
      labels={{
        text: toPost ? t('label') : t('reply_label'),
        placeholder: toPost ? t('placeholder') : t('reply_placeholder'),
        addMention: t('add_mention'),
        attach: t('attach_image'),
        removeImage: () => t('remove_image'),
        submit: t('submit'),
      }}
      busy={sending}
      onSubmit={() => void submit()}
    />
  );
}
