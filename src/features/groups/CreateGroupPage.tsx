import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { EMPTY_GROUP, GroupForm } from './GroupForm';
import './groups.css';
import { PageHeader } from '../../components/PageHeader';

/** /create-group: after the group is saved the user goes to it. */
export default function CreateGroupPage() {
  const { t } = useTranslation('groups');
  const navigate = useNavigate();
  return (
    <section className="group-form-page">
      <PageHeader title={t('create.title')} heading />
      <GroupForm initial={EMPTY_GROUP} submitLabel={t('create.submit')} onSaved={(group) => void navigate(`/g/${encodeURIComponent(group.name)}`)} />
    </section>
  );
}
