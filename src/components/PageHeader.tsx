import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { Icon } from './Icon';
import './PageHeader.css';

/**
 * Back to the page before this one in the app; with none (the page was opened from a link or a
 * home-screen shortcut, where an installed app has no browser back button) to the feed.
 */
export function BackButton({ fallback = '/feed' }: { fallback?: string }) {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  // The router keys the first page of a tab "default": no page of the app came before it.
  const cameFromApp = useLocation().key !== 'default';
  return (
    <button
      type="button"
      className="icon-button page-header__back"
      aria-label={t('back')}
      onClick={() => void (cameFromApp ? navigate(-1) : navigate(fallback, { replace: true }))}
    >
      <Icon name="back" size={22} />
    </button>
  );
}

interface PageHeaderProps {
  /** The page's title beside the back control. */
  title: ReactNode;
  /** The title is the page's heading (h1); otherwise the page has its own and this is only a label. */
  heading?: boolean;
  titleId?: string;
  /** Where back goes when the app has no page before this one. */
  fallback?: string;
  /** Controls at the end of the header. */
  children?: ReactNode;
}

/** The header of a sub-page: a back control and the title, kept at the top as the page scrolls. */
export function PageHeader({ title, heading = false, titleId, fallback, children }: PageHeaderProps) {
  const Title = heading ? 'h1' : 'p';
  return (
    <div className="page-header">
      <BackButton fallback={fallback} />
      <Title className="page-header__title" id={titleId}>
        {title}
      </Title>
      {children ? <div className="page-header__end">{children}</div> : null}
    </div>
  );
}
