import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessageOf } from '../../lib/api/client';
import { useDb } from '../../lib/db/useDb';
import { toast } from '../../lib/toast';
import { type StoredAccount, changeDiscovery, patchStoredAccount } from './account.api';

type Choice = 'discoverable' | 'indexable';
const CHOICES: readonly Choice[] = ['discoverable', 'indexable'];

/**
 * How the account shows on other fediverse servers: listed in their directories, its posts in their
 * search. One checkbox each, saved as it is clicked; an account that never chose has both on, as
 * the server does. A change the server refuses turns its checkbox back.
 */
export function DiscoverySettings({ account }: { account: StoredAccount }) {
  const { t } = useTranslation('account');
  const db = useDb();
  // What this visit chose, over the stored account's.
  const [chosen, setChosen] = useState<Partial<Record<Choice, boolean>>>({});
  const [saving, setSaving] = useState(false);
  const valueOf = (choice: Choice) => chosen[choice] ?? account[choice] ?? true;

  const toggle = async (choice: Choice) => {
    const next = !valueOf(choice);
    setChosen((before) => ({ ...before, [choice]: next }));
    setSaving(true);
    try {
      const { discoverable, indexable } = await changeDiscovery({ [choice]: next });
      setChosen({ discoverable, indexable });
      await patchStoredAccount(db, { discoverable, indexable });
    } catch (err) {
      setChosen((before) => ({ ...before, [choice]: !next }));
      toast.error(errorMessageOf(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <fieldset className="account-section account-language">
      <legend className="account-section__title">{t('discovery.label')}</legend>
      {CHOICES.map((choice) => (
        <div key={choice}>
          <label className="account-language__option">
            <input
              type="checkbox"
              checked={valueOf(choice)}
              disabled={saving}
              aria-describedby={`discovery-${choice}-hint`}
              onChange={() => void toggle(choice)}
            />
            {t(`discovery.${choice}`)}
          </label>
          <p id={`discovery-${choice}-hint`} className="account-form__note">
            {t(`discovery.${choice}Hint`)}
          </p>
        </div>
      ))}
    </fieldset>
  );
}
