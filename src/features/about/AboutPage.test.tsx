import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, stubFetch } from '../../test/render';
import AboutPage from './AboutPage';

/** What an instance that said everything answers, and one that said nothing yet. */
const SILENT = { name: 'kruh.example', description: '', about: '', rules: [] as string[], contact: '' };
const INSTANCE: typeof SILENT = { ...SILENT, name: 'Kruh of friends', rules: ['Be kind.', 'No spam.'], contact: 'admin@kruh.example' };
INSTANCE.description = 'A small instance for friends';
INSTANCE.about = 'We meet on Thursdays.\n\nBring tea.';

function renderAbout(instance: typeof INSTANCE, lng: 'en' | 'cs' = 'en') {
  const stub = stubFetch((url) => (url.pathname === '/api/instance' ? { body: instance } : undefined));
  vi.stubGlobal('fetch', stub.fetchMock);
  return renderWithApp(<AboutPage />, { route: '/about', path: '/about', lng });
}

describe('AboutPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows what the instance says about itself: name, description, text, rules and address', async () => {
    renderAbout(INSTANCE);
    expect(await screen.findByRole('heading', { level: 1, name: 'About Kruh of friends' })).toBeInTheDocument();
    expect(screen.getByText('A small instance for friends')).toBeInTheDocument();
    expect(screen.getByText('We meet on Thursdays.')).toBeInTheDocument();
    expect(screen.getByText('Bring tea.')).toBeInTheDocument();
    const rules = screen.getByRole('region', { name: 'Rules' });
    expect(rules.querySelectorAll('li')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'admin@kruh.example' })).toHaveAttribute('href', 'mailto:admin@kruh.example');
  });

  it('says so when nothing is set, and speaks Czech', async () => {
    renderAbout(SILENT, 'cs');
    expect(await screen.findByRole('heading', { level: 1, name: 'O instanci kruh.example' })).toBeInTheDocument();
    expect(screen.getByText('Tato instance o sobě zatím nic nenapsala.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Pravidla' })).toBeNull();
  });
});
