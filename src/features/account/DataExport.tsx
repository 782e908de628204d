import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessageOf } from '../../lib/api/client';
import { currentLanguage, translateMessage } from '../../lib/i18n';
import { useOnline } from '../../lib/online';
import { downloadAccountData } from './account.api';
import { AccountSection } from './AccountSection';

type ExportState =
  | { kind: 'idle' }
  | { kind: 'downloading'; received: number; total: number | null }
  | { kind: 'done' }
  | { kind: 'failed'; message: string };

/** "0.5 kB", "12.5 kB", "3.2 MB" in the interface language (bytes alone read oddly in some). */
export function formatBytes(bytes: number, language: string): string {
  const [unit, size] = bytes < 1_000_000 ? (['kilobyte', bytes / 1000] as const) : (['megabyte', bytes / 1_000_000] as const);
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(size);
}

/** Hands a downloaded file to the browser to save, under its name. */
function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the URL only after the click has returned.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * "Download my data": the account's data as a zip (GET /account/export), read with the session's
 * token while it streams in, so the bytes received show as they come; then saved as a file. Needs
 * the server, so it waits for a connection. Shared by the account page and the delete dialog.
 */
export function useDataExport() {
  const online = useOnline();
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const running = useRef(false);

  const start = async () => {
    if (running.current) return;
    running.current = true;
    setState({ kind: 'downloading', received: 0, total: null });
    try {
      const file = await downloadAccountData((received, total) => setState({ kind: 'downloading', received, total }));
      saveFile(file.blob, file.fileName ?? 'kruh-data.zip');
      setState({ kind: 'done' });
    } catch (err) {
      console.error(err);
      setState({ kind: 'failed', message: errorMessageOf(err, 'account:export.failed') });
    } finally {
      running.current = false;
    }
  };
  return { state, online, start: () => void start() };
}

/** The "Download my data" button and what it says while it downloads, once done or failed. */
export function DataExportButton({ exporter }: { exporter: ReturnType<typeof useDataExport> }) {
  const { t, i18n } = useTranslation('account');
  const { state, online, start } = exporter;
  const downloading = state.kind === 'downloading';
  return (
    <>
      <button type="button" className="button" disabled={!online || downloading} onClick={start}>
        {t('export.button')}
      </button>
      {!online ? <p className="account-export__hint">{t('export.offline')}</p> : null}
      {downloading ? (
        <div className="account-export__progress">
          {/* Indeterminate (no value) until the size is known: the zip is written as it is sent. */}
          <progress
            aria-label={t('export.progress')}
            {...(state.total ? { value: state.received, max: state.total } : {})}
          />
          <span role="status">
            {state.received > 0 ? t('export.received', { size: formatBytes(state.received, currentLanguage(i18n)) }) : t('export.preparing')}
          </span>
        </div>
      ) : null}
      {state.kind === 'done' ? <p role="status">{t('export.done')}</p> : null}
      {state.kind === 'failed' ? (
        <p className="field__error" role="alert">
          {translateMessage(t, state.message)}
        </p>
      ) : null}
    </>
  );
}

/** The account page's section holding the download of the account's data. */
export function DataExport() {
  const { t } = useTranslation('account');
  const exporter = useDataExport();
  return (
    <AccountSection id="account-export-title" kind="account-export" title={t('export.title')} note={t('export.description')} noteClass="account-export__hint">
      <DataExportButton exporter={exporter} />
    </AccountSection>
  );
}
