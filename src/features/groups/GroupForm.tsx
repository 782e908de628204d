import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '#core/limits';
import { storedLength } from '#core/text';
import { validateDescription, validateGroupName } from '#core/validation';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormField } from '../../components/FormField';
import { errorMessageOf, uploadErrorOf } from '../../lib/api/client';
import { dismissToast, toast } from '../../lib/toast';
import { type GroupInput, saveGroup, uploadGroupAvatar } from './groups.api';
import './groups.css';
import { ImagePicker } from '../../components/ImagePicker';

type Flag = 'isPrivate' | 'everyoneCanPost' | 'requestJoin';
const FLAGS: Flag[] = ['isPrivate', 'everyoneCanPost', 'requestJoin'];

export const EMPTY_GROUP: GroupInput = { name: '', description: '', isPrivate: false, requestJoin: false, everyoneCanPost: true };

function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

interface GroupFormProps {
  initial: GroupInput;
  /** Set when editing an existing group. */
  groupId?: string;
  submitLabel: string;
  /** False for an admin who is not the owner: only the owner may make a group private or public. */
  canChangePrivacy?: boolean;
  onSaved: (group: { _id: string; name: string }) => void;
  /** The group's picture now (settings), shown until another is chosen. */
  currentPicture?: string | null;
}

/**
 * The group form (create and settings): name (max 32), description (at most 100 characters, the
 * counter turning red past them; 32 lines), the private / everyoneCanPost / requestJoin choices and an avatar.
 * Validation errors show as toasts; once the group is saved the chosen avatar is uploaded with its id.
 */
export function GroupForm({ initial, groupId, submitLabel, canChangePrivacy = true, onSaved, currentPicture }: GroupFormProps) {
  const { t } = useTranslation('groups');
  const fileId = useId();
  const [values, setValues] = useState<GroupInput>(initial);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmingPublic, setConfirmingPublic] = useState<GroupInput | null>(null);
  // One key per filled-in form: a retried create is not made twice.
  const [idempotencyKey, setIdempotencyKey] = useState(newKey);
  // The last "what is wrong" toast: once the form is right it no longer applies, and would sit
  // beside the success.
  const problemToast = useRef<number | null>(null);
  const takeBackProblem = () => {
    if (problemToast.current !== null) dismissToast(problemToast.current);
    problemToast.current = null;
  };

  // The same rule the submit and the server apply: past it the counter warns, and the form refuses.
  const descriptionTooLong = validateDescription(values.description) === 'max_desc_length';

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input: GroupInput = { ...values, name: values.name.trim() };
    const problem = validateGroupName(input.name) ?? validateDescription(input.description);
    takeBackProblem();
    if (problem) {
      problemToast.current = toast.error(`error/${problem}`);
      return;
    }
    // Going public shows everything the members wrote so far to everyone: asked first.
    if (groupId && initial.isPrivate && !input.isPrivate) {
      setConfirmingPublic(input);
      return;
    }
    await save(input);
  }

  async function save(input: GroupInput) {
    setBusy(true);
    try {
      const saved = await saveGroup(input, groupId ? { id: groupId } : { idempotencyKey });
      if (file) {
        try {
          await uploadGroupAvatar(saved.group._id, file);
        } catch (err) {
          console.error('group avatar', err);
          toast.error(uploadErrorOf(err));
        }
      }
      toast.info(saved.message ?? (groupId ? 'info/group_updated' : 'info/created_group'));
      setIdempotencyKey(newKey());
      onSaved(saved.group);
    } catch (err) {
      toast.error(errorMessageOf(err, 'error/posting_failed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="group-form" onSubmit={(event) => void submit(event)} noValidate>
      <FormField
        label={t('form.name')}
        name="name"
        value={values.name}
        maxLength={LIMITS.groupNameMax}
        autoComplete="off"
        onChange={(event) => setValues((v) => ({ ...v, name: event.target.value }))}
      />
      <div className="field">
        <label className="field__label" htmlFor={`${fileId}-description`}>
          {t('form.description')}
        </label>
        <textarea
          id={`${fileId}-description`}
          className="field__input"
          name="description"
          rows={3}
          value={values.description}
          aria-invalid={descriptionTooLong ? true : undefined}
          aria-describedby={`${fileId}-description-count`}
          onChange={(event) => setValues((v) => ({ ...v, description: event.target.value }))}
        />
        <p id={`${fileId}-description-count`} className={`field__hint${descriptionTooLong ? ' field__hint--over' : ''}`}>
          {t('form.description_hint', { count: storedLength(values.description), max: LIMITS.descriptionMaxLength })}
        </p>
      </div>
      {FLAGS.map((flag) => (
        <fieldset key={flag} className="group-form__flag">
          <legend>{t(`form.${flag}`)}</legend>
          {[true, false].map((choice) => (
            <label key={String(choice)}>
              <input
                type="radio"
                name={flag}
                checked={values[flag] === choice}
                disabled={flag === 'isPrivate' && !canChangePrivacy}
                onChange={() => setValues((v) => ({ ...v, [flag]: choice }))}
              />
              {choice ? t('form.yes') : t('form.no')}
            </label>
          ))}
          {flag === 'isPrivate' && !canChangePrivacy ? <p className="field__hint">{t('settings.privacy_owner_only')}</p> : null}
        </fieldset>
      ))}
      <ImagePicker label={t('form.avatar')} file={file} onFile={setFile} currentUrl={currentPicture} />
      <button type="submit" className="button button--primary" disabled={busy}>
        {submitLabel}
      </button>
      {confirmingPublic ? (
        <ConfirmDialog
          question={t('settings.make_public_confirm')}
          detail={t('settings.make_public_detail')}
          action={t('settings.make_public_action')}
          onCancel={() => setConfirmingPublic(null)}
          onConfirm={() => {
            const input = confirmingPublic;
            setConfirmingPublic(null);
            void save(input);
          }}
        />
      ) : null}
    </form>
  );
}
