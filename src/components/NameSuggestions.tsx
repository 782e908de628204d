import { useTranslation } from 'react-i18next';
import type { NameResult } from '../lib/api/types';
import { UserName } from './remote/Remote';
import type { Combobox } from './useCombobox';
import type { NameKind } from './useNameSuggestions';
import './SlotInput.css';

interface Props {
  kind: NameKind;
  items: NameResult[];
  combobox: Combobox;
  /** Extra class of the list (where it sits differs between a slot and the text). */
  className?: string;
}

/** The list of suggested accounts or groups under a field that takes a name, while it is expanded. */
export function NameSuggestions({ kind, items, combobox, className }: Props) {
  const { t } = useTranslation('common');
  if (!combobox.expanded) return null;
  const prefix = kind === 'mention' ? '@' : '&';
  return (
    <ul className={className ? `slot-suggestions ${className}` : 'slot-suggestions'} {...combobox.listProps} aria-label={t('slot.suggestions')}>
      {items.map((r, i) => (
        <li key={r._id} {...combobox.optionProps(i)}>
          {prefix}
          {/* A community of another server (`name@host`) reads as a remote account's name does. */}
          {kind === 'group' ? <UserName username={r.name} /> : r.name}
        </li>
      ))}
    </ul>
  );
}
