import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../test/render';
import { GALLERY_SETTINGS, Gallery } from './Gallery';

configure({ asyncUtilTimeout: 3000 });

const slides = [1, 2, 3].map((n) => ({ src: `/media/posts/${n}.jpeg`, alt: `picture ${n}` }));

function Harness({ onClose, finite }: { onClose: () => void; finite?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        open
      </button>
      <Gallery
        open={open}
        slides={slides}
        finite={finite}
        onClose={() => {
          setOpen(false);
          onClose();
        }}
      />
    </>
  );
}

const current = () => document.querySelector('.yarl__slide_current') as HTMLElement;
/** The lightbox listens for keys on its focused container. */
const keys = () => document.querySelector('.yarl__container') as HTMLElement;

describe('Gallery', () => {
  it('opens full-screen, labels slides "index of total" and moves with the buttons and arrows', async () => {
    renderWithApp(<Harness onClose={() => undefined} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'open' }));
    const dialog = await screen.findByRole('dialog', { name: 'Image gallery' });
    expect(current()).toHaveAttribute('aria-label', '1 of 3');
    expect(within(current()).getByRole('img')).toHaveAttribute('src', '/media/posts/1.jpeg');
    expect(dialog.querySelector('.yarl__counter')).toHaveTextContent('1 of 3');
    expect(document.body.classList.contains('yarl__no_scroll')).toBe(true);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(current()).toHaveAttribute('aria-label', '2 of 3'));
    fireEvent.keyDown(keys(), { key: 'ArrowRight' });
    await waitFor(() => expect(current()).toHaveAttribute('aria-label', '3 of 3'));
    // Not finite: it wraps.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(current()).toHaveAttribute('aria-label', '1 of 3'));
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Zoom in' })).toBeInTheDocument();
  });

  it('closes on Escape after the fade', async () => {
    const onClose = vi.fn();
    renderWithApp(<Harness onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'open' }));
    await screen.findByRole('dialog');
    fireEvent.keyDown(keys(), { key: 'Escape' });
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('closes with the close button', async () => {
    const onClose = vi.fn();
    renderWithApp(<Harness onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'open' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('keeps Tab inside and gives the focus back to the opener when it closes', async () => {
    renderWithApp(<Harness onClose={() => undefined} />);
    const opener = screen.getByRole('button', { name: 'open' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = await screen.findByRole('dialog');
    const close = within(dialog).getByRole('button', { name: 'Close' });
    const next = within(dialog).getByRole('button', { name: 'Next' });
    const buttons = within(dialog)
      .getAllByRole('button')
      .filter((b) => !(b as HTMLButtonElement).disabled);
    const last = buttons[buttons.length - 1]!;
    last.focus();
    fireEvent.keyDown(last, { key: 'Tab' });
    expect(document.activeElement).toBe(buttons[0]);
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(buttons[0]!, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
    expect(buttons).toContain(next);
    fireEvent.click(close);
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('draws no fade when the device asks for reduced motion', async () => {
    const original = window.matchMedia;
    window.matchMedia = (query: string) =>
      ({ matches: query.includes('reduced-motion'), media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList;
    try {
      renderWithApp(<Harness onClose={() => undefined} />);
      fireEvent.click(screen.getByRole('button', { name: 'open' }));
      const root = (await screen.findByRole('dialog')).closest('.yarl__root') ?? document.querySelector('.yarl__portal');
      expect((root as HTMLElement).getAttribute('style') ?? '').toMatch(/--yarl__fade_animation_duration: 0ms/);
    } finally {
      window.matchMedia = original;
    }
  });

  it('does not go before the first slide in finite mode', async () => {
    renderWithApp(<Harness onClose={() => undefined} finite />);
    fireEvent.click(screen.getByRole('button', { name: 'open' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Previous' })).toBeDisabled();
    fireEvent.keyDown(keys(), { key: 'ArrowLeft' });
    await new Promise((r) => setTimeout(r, 50));
    expect(current()).toHaveAttribute('aria-label', '1 of 3');
  });

  it('speaks Czech and keeps its fixed animation, carousel and zoom numbers', async () => {
    renderWithApp(<Harness onClose={() => undefined} />, { lng: 'cs' });
    fireEvent.click(screen.getByRole('button', { name: 'open' }));
    const dialog = await screen.findByRole('dialog', { name: 'Galerie obrázků' });
    expect(current()).toHaveAttribute('aria-label', '1 z 3');
    expect(within(dialog).getByRole('button', { name: 'Další' })).toBeInTheDocument();
    expect(GALLERY_SETTINGS).toEqual({
      animation: { fade: 250, swipe: 500, zoom: 500 },
      carousel: { preload: 2, padding: '16px', spacing: '30%' },
      zoom: { maxZoomPixelRatio: 3, zoomInMultiplier: 2, doubleTapDelay: 300, doubleClickDelay: 500 },
    });
  });
});
