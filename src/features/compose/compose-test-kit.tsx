import { screen } from '@testing-library/react';
import type { RouteObject } from 'react-router-dom';
import { afterEach, beforeEach } from 'vitest';
import { RequireAuth, resetAuthGuard } from '../../app/guards/auth-guard';
import { clearLocalData } from '../../lib/db/db';
import { cancelScheduledSend } from '../../lib/outbox/outbox';
import { storeSession } from '../../lib/session';
import { useTestFiles } from '../../test/files';
import { setOnline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import ComposePage from './ComposePage';

/** The composer as the app's route table mounts it: behind the auth guard. */
export const renderComposer = (route: string, routes: RouteObject[]) =>
  renderWithApp(
    <RequireAuth>
      <ComposePage />
    </RequireAuth>,
    { route, path: '/post', routes },
  );

export const composerTextbox = () => screen.getByRole('textbox', { name: 'What is on your mind?' });

/** Each test starts offline, signed in as `me`, with an empty database and no send scheduled. */
export function setUpComposerTests(): void {
  beforeEach(async () => {
    useTestFiles();
    setOnline(false);
    storeSession('t1', 'me', 'u9');
    resetAuthGuard();
    await clearLocalData();
  });
  afterEach(() => cancelScheduledSend());
}
