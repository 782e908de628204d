import { useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError, isSessionRefused } from '../../lib/api/client';
import { useDb } from '../../lib/db/useDb';
import { queryKeys } from '../../lib/query/keys';
import { clearSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { type StoredAccount, fetchAccount, readStoredAccount } from './account.api';

/**
 * The caller's account: the stored copy paints at once (also offline), POST /account/get refreshes
 * it. When the server refuses the session, the stored copy stays and the shell says the session
 * ended; any other refusal shows an error toast, ends the session and sends the user to /login.
 * When the server cannot be reached the stored copy is kept.
 */
export function useAccount(): { account: StoredAccount | null; isLoading: boolean } {
  const db = useDb();
  const navigate = useNavigate();
  const stored = useLiveQuery(() => readStoredAccount(db), [db]);
  const query = useQuery({
    queryKey: queryKeys.account(db.name),
    queryFn: ({ signal }) => fetchAccount(db, signal),
    staleTime: 0,
  });

  const reported = useRef<unknown>(null);
  const error = query.error;
  useEffect(() => {
    // Whether a copy is stored decides what an unreachable server means: wait for the answer.
    if (!error || reported.current === error || stored === undefined) return;
    reported.current = error;
    if (isSessionRefused(error)) return;
    if (error instanceof ApiError && error.status < 500) {
      toast.error(error.key ? `error/${error.key}` : 'error/loading_failed');
      clearSession();
      void navigate('/login', { replace: true });
      return;
    }
    if (!stored) toast.error(error instanceof ApiError && error.key ? `error/${error.key}` : 'error/loading_failed');
  }, [error, stored, navigate]);

  const account = stored ?? query.data ?? null;
  return { account, isLoading: !account && (stored === undefined || query.isPending) };
}
