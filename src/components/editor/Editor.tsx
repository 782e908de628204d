import { type ClipboardEvent, type ReactNode, type RefObject, useEffect, useId, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '#core/limits';
import { fieldMaxLength, insertWithin } from '#core/text';
import { NameSuggestions } from '../NameSuggestions';
import { SlotInput } from '../SlotInput';
import type { DraftImage } from '../../lib/db/db';
import type { EditorState, SlotKind } from './useEditor';
import { useTextSuggestions } from './useTextSuggestions';
import '../FormField.css';
import './editor.css';

/** The editor's texts, translated by the screen. */
export interface EditorLabels {
  /** The text area's label (read by screen readers only). */
  text: string;
  placeholder: string;
  addMention: string;
  /** Needed when the editor has group slots. */
  groups?: string;
  addGroup?: string;
  attach: string;
  /** The remove button of the image at `index` (from 1). */
  removeImage: (index: number) => string;
  submit: string;
}

interface EditorProps {
  editor: EditorState;
  /** The text area's ref, the one given to `useEditor`. */
  textRef: RefObject<HTMLTextAreaElement | null>;
  labels: EditorLabels;
  /**
   * The form's class, and the prefix of its parts' classes (`<name>-slots`, `-images`, `-image`,
   * `-error`, `-toolbar`, `-attach`, and `-meta` or `-length`): each screen lays out its editor.
   * The fields and buttons themselves wear the app's own classes on every screen.
   */
  className: string;
  rows: number;
  /** A hint under the text (with the count beside it); without one the count sits in the toolbar. */
  hint?: string;
  /** Sending: the submit button waits. */
  busy: boolean;
  onSubmit: () => void;
  /** More tools before the submit button (the GIF picker). */
  tools?: ReactNode;
}

interface ThumbnailProps {
  image: DraftImage;
  className: string;
  removeLabel: string;
  onRemove: () => void;
  /** The description field's id and label, and what typing in it does. */
  altId: string;
  altLabel: string;
  altPlaceholder: string;
  onAlt: (alt: string) => void;
}

/** An attached image with its remove button and its description (alt text), sent with it. */
function Thumbnail({ image, className, removeLabel, onRemove, altId, altLabel, altPlaceholder, onAlt }: ThumbnailProps) {
  const url = useMemo(() => URL.createObjectURL(image.blob), [image.blob]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return (
    <li className={className}>
      <img src={url} alt="" />
      <button type="button" className="icon-button editor__remove-image" aria-label={removeLabel} onClick={onRemove}>
        ×
      </button>
      <label className={`${className}-alt-label`} htmlFor={altId}>
        {altLabel}
      </label>
      <textarea
        id={altId}
        className={`field__input ${className}-alt`}
        rows={2}
        value={image.alt ?? ''}
        maxLength={LIMITS.imageAltMaxLength}
        placeholder={altPlaceholder}
        onChange={(e) => onAlt(e.target.value)}
      />
    </li>
  );
}

const SLOT_KINDS: Record<SlotKind, 'mention' | 'group'> = { mentions: 'mention', groups: 'group' };

/**
 * The post and comment editor: the text (Ctrl+Enter sends), its mention and group slots, the
 * attached images and the message under it. The state is `useEditor`'s; the screen says what
 * sending does.
 */
export function Editor({ editor, textRef, labels, className: name, rows, hint, busy, onSubmit, tools }: EditorProps) {
  const id = useId();
  // The only media downloaded after the pick are GIFs.
  const { t: tGifs } = useTranslation('gifs');
  // The same words in the composer and the comment box.
  const { t: tEditor } = useTranslation('editor');
  const { draft, ready } = editor;
  const warning = draft.contentWarning;
  const length = <span className={hint === undefined ? `${name}-length` : undefined}>{tEditor('length', { length: editor.length, max: LIMITS.textMaxLength })}</span>;
  const maxLength = fieldMaxLength(draft.text, LIMITS.textMaxLength);
  // Where the caret goes once text put in by the editor (a paste it cut, a chosen name) is there.
  const caretAfterEdit = useRef<number | null>(null);
  useEffect(() => {
    const caret = caretAfterEdit.current;
    if (caret === null || !textRef.current) return;
    caretAfterEdit.current = null;
    textRef.current.setSelectionRange(caret, caret);
  }, [draft.text, textRef]);
  const suggestions = useTextSuggestions({
    text: draft.text,
    groups: editor.canAddGroups,
    onText: (text, caret) => {
      caretAfterEdit.current = caret;
      editor.onText(text);
    },
    onPicked: (kind, picked) => editor.addPicked(kind, { query: picked.name, id: picked._id }),
  });
  // The field would cut a paste by its UTF-16 units (an emoji counting twice): the text takes what
  // fits by the server's count instead.
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = e.clipboardData.getData('text/plain');
    const field = e.currentTarget;
    const { selectionStart: start, selectionEnd: end } = field;
    if (field.value.length - (end - start) + pasted.length <= maxLength) return;
    e.preventDefault();
    const next = insertWithin(field.value, start, end, pasted, LIMITS.textMaxLength);
    caretAfterEdit.current = next.caret;
    editor.onText(next.text);
  };
  return (
    <form
      className={name}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {editor.canWarn && warning !== undefined && (
        <div className={`${name}-warning`}>
          <label htmlFor={`${id}-warning`}>{tEditor('content_warning')}</label>
          <input
            id={`${id}-warning`}
            type="text"
            className="field__input"
            value={warning}
            maxLength={LIMITS.contentWarningMaxLength}
            placeholder={tEditor('content_warning_placeholder')}
            onChange={(e) => editor.setContentWarning(e.target.value)}
          />
        </div>
      )}
      <label className="visually-hidden" htmlFor={`${id}-text`}>
        {labels.text}
      </label>
      <div className="editor__text">
        <textarea
          id={`${id}-text`}
          ref={textRef}
          className="field__input"
          value={draft.text}
          disabled={!ready}
          maxLength={maxLength}
          placeholder={labels.placeholder}
          aria-invalid={!!editor.errorText}
          aria-describedby={hint === undefined ? `${id}-error` : `${id}-error ${id}-hint`}
          rows={rows}
          {...suggestions.textProps}
          onChange={(e) => {
            editor.onText(e.target.value);
            suggestions.onChange(e.target);
          }}
          onPaste={onPaste}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              onSubmit();
            } else suggestions.onKeyDown(e);
          }}
        />
        <NameSuggestions kind={suggestions.kind} items={suggestions.items} combobox={suggestions.combobox} className="editor__suggestions" />
      </div>
      {hint !== undefined && (
        <div className={`${name}-meta`}>
          <span id={`${id}-hint`}>{hint}</span>
          {length}
        </div>
      )}
      {(['mentions', 'groups'] as const).map((kind) =>
        draft[kind].length > 0 ? (
          <fieldset key={kind} className={`editor__slots ${name}-slots`}>
            <legend>{kind === 'mentions' ? tEditor('mentions') : labels.groups}</legend>
            {draft[kind].map((slot, i) => (
              <SlotInput
                key={`${kind}-${i}`}
                kind={SLOT_KINDS[kind]}
                slot={slot}
                autoFocus={editor.focusSlot === `${kind}:${i}`}
                onChange={(s) => editor.setSlot(kind, i, s)}
                onRemove={() => editor.setSlot(kind, i, null)}
              />
            ))}
          </fieldset>
        ) : null,
      )}
      {(draft.images.length > 0 || editor.mediaLoading) && (
        <ul className={`${name}-images`}>
          {editor.mediaLoading && (
            <li className={`${name}-image ${name}-image--loading`} role="status">
              {tGifs('attaching')}
            </li>
          )}
          {draft.images.map((image, i) => (
            <Thumbnail
              key={i}
              image={image}
              className={`${name}-image`}
              removeLabel={labels.removeImage(i + 1)}
              onRemove={() => editor.removeImage(i)}
              altId={`${id}-alt-${i}`}
              altLabel={draft.images.length > 1 ? tEditor('image_description_n', { index: i + 1 }) : tEditor('image_description')}
              altPlaceholder={tEditor('image_description_placeholder')}
              onAlt={(alt) => editor.setAlt(i, alt)}
            />
          ))}
        </ul>
      )}
      <p id={`${id}-error`} className={`${name}-error`} role="alert">
        {editor.errorText}
      </p>
      <div className={`${name}-toolbar`}>
        {hint === undefined && length}
        {/* Until the draft is read, a click on any of these would be lost when it arrives. */}
        <button type="button" className="link-button" disabled={!ready} onClick={() => editor.addSlot('mentions')}>
          @ {labels.addMention}
        </button>
        {editor.canAddGroups && (
          <button type="button" className="link-button" disabled={!ready} onClick={() => editor.addSlot('groups')}>
            &amp; {labels.addGroup}
          </button>
        )}
        {/* An editor that takes no images (a post's edit keeps the images it has) offers none. */}
        {editor.maxImages > 0 && (
          <label className={`link-button ${name}-attach`}>
            {labels.attach}
            <input
              type="file"
              accept="image/*"
              className="visually-hidden"
              multiple={editor.maxImages > 1}
              disabled={!ready}
              onChange={(e) => {
                editor.onFiles(e.target.files);
                e.target.value = '';
              }}
            />
          </label>
        )}
        {editor.canWarn && (
          <button
            type="button"
            className="link-button"
            disabled={!ready}
            aria-pressed={warning !== undefined}
            onClick={() => editor.toggleContentWarning()}
          >
            {tEditor('content_warning')}
          </button>
        )}
        {tools}
        <button type="submit" className="button button--primary" disabled={!ready || busy}>
          {labels.submit}
        </button>
      </div>
    </form>
  );
}
