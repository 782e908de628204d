import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { Icon } from '../../components/Icon';
import { HistoryEntry } from '../../lib/kept-place/entry';
import { useKeptPlace } from '../../lib/kept-place/useKeptPlace';
import { Overlay } from '../../components/Overlay';
import { Tooltip } from '../../components/Tooltip';
import { Logo } from './Logo';
import { NavBar } from './NavBar';
import { SessionNotice } from './SessionNotice';
import { Toasts } from './Toasts';
import { UpdatePrompt } from './UpdatePrompt';
import { useScreenFocus } from './screen-focus';
import { useScreenTitle } from './screen-title';
import './Shell.css';

// Search asks the API and reads the local database: the column fills in after the first paint.
const SearchPanel = lazy(() => import('./SearchPanel').then((m) => ({ default: m.SearchPanel })));

export function PageLoading() {
  const { t } = useTranslation('common');
  return (
    <div className="page-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{t('loading')}</span>
    </div>
  );
}

/**
 * The layout: navigation, the page, and the right column with the search box and recent
 * searches (hidden on /search; behind a search button overlay on small screens).
 */
export function Shell() {
  const { t } = useTranslation('common');
  const { pathname } = useLocation();
  const [searchOpen, setSearchOpen] = useState(false);
  const entry = useKeptPlace();
  useScreenTitle();
  useScreenFocus();
  const showSearch = pathname !== '/search';

  return (
    <div className={`shell${showSearch ? '' : ' shell--no-aside'}`}>
      <a className="skip-link" href="#main" onClick={(e) => {
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}>
        {t('skipToContent')}
      </a>
      <header className="topbar">
        <button
          type="button"
          className="topbar__logo"
          aria-label={t('scrollTop')}
          onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
        >
          <Logo />
        </button>
        {showSearch ? (
          <Tooltip label={t('search.open')}>
            <button
              type="button"
              className="icon-button"
              aria-label={t('search.open')}
              aria-haspopup="dialog"
              onClick={() => setSearchOpen(true)}
            >
              <Icon name="search" />
            </button>
          </Tooltip>
        ) : null}
      </header>
      <NavBar />
      <main id="main" className="shell__main" tabIndex={-1}>
        <SessionNotice />
        <Suspense fallback={<PageLoading />}>
          <HistoryEntry value={entry}>
            <Outlet />
          </HistoryEntry>
        </Suspense>
      </main>
      {showSearch ? (
        <aside className="shell__aside" aria-label={t('search.label')}>
          <div className="shell__aside-inner">
            <Suspense fallback={null}>
              <SearchPanel />
            </Suspense>
          </div>
        </aside>
      ) : null}
      {searchOpen && showSearch ? (
        <Overlay label={t('search.label')} onClose={() => setSearchOpen(false)} className="search-overlay">
          <div className="search-overlay__header">
            <Tooltip label={t('close')}>
              <button
                type="button"
                className="icon-button"
                aria-label={t('close')}
                onClick={() => setSearchOpen(false)}
              >
                <Icon name="back" />
              </button>
            </Tooltip>
          </div>
          <Suspense fallback={null}>
            <SearchPanel autoFocus onDone={() => setSearchOpen(false)} />
          </Suspense>
        </Overlay>
      ) : null}
      <Toasts />
      <UpdatePrompt />
      <ScrollRestoration />
    </div>
  );
}
