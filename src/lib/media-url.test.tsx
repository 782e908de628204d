import '../test/setup';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Avatar } from '../components/Avatar';
import { Gallery } from '../components/Gallery';
import { MediaImg } from '../components/MediaImg';
import { PostImages } from '../components/post/PostImages';
import { renderWithApp } from '../test/render';
import { contentHostUrl, getMediaBase, mediaPathOf, setMediaBase } from './media-url';

const HOST = 'https://media.example.com';

afterEach(() => {
  act(() => setMediaBase(null));
});

describe('media URLs on the content host', () => {
  it('takes the path after /media of an app media URL, its query included, and nothing of other URLs', () => {
    expect(mediaPathOf('/media/pfp/u1.jpeg?v=7')).toBe('/pfp/u1.jpeg?v=7');
    expect(mediaPathOf('/media/abc0.webp?exp=123&sig=xyz')).toBe('/abc0.webp?exp=123&sig=xyz');
    expect(mediaPathOf(`${location.origin}/media/abc0.webp?v=2`)).toBe('/abc0.webp?v=2');
    for (const other of ['blob:http://localhost/1234', 'data:image/png;base64,AAAA', 'https://media.tenor.com/x.gif', '/api/media/x', '/mediax/a', 'https://elsewhere.test/media/a.webp']) {
      expect(mediaPathOf(other)).toBeNull();
    }
  });

  it('reads app media from MEDIA_URL plus the path after /media, signed URLs keeping their query; without one, as given', () => {
    expect(contentHostUrl('/media/pfp/u1.jpeg?v=7', HOST)).toBe(`${HOST}/pfp/u1.jpeg?v=7`);
    expect(contentHostUrl('/media/abc0.webp?exp=123&sig=xyz', HOST)).toBe(`${HOST}/abc0.webp?exp=123&sig=xyz`);
    expect(contentHostUrl('/media/gp/default.jpeg', `${HOST}/kruh`)).toBe(`${HOST}/kruh/gp/default.jpeg`);
    expect(contentHostUrl('blob:http://localhost/1234', HOST)).toBe('blob:http://localhost/1234');
    expect(contentHostUrl('/media/pfp/u1.jpeg?v=7', null)).toBe('/media/pfp/u1.jpeg?v=7');
    expect(contentHostUrl('/media/pfp/u1.jpeg?v=7')).toBe('/media/pfp/u1.jpeg?v=7');
  });

  it('remembers the content host the config named, for a start offline, and forgets it when the config names none', () => {
    setMediaBase(`${HOST}/`);
    expect(getMediaBase()).toBe(HOST);
    expect(localStorage.getItem('mediaUrl')).toBe(HOST);
    expect(contentHostUrl('/media/a.webp')).toBe(`${HOST}/a.webp`);
    setMediaBase(null);
    expect(getMediaBase()).toBeNull();
    expect(localStorage.getItem('mediaUrl')).toBeNull();
  });
});

describe('images falling back to /media', () => {
  it('loads from the content host, falls back once to /media on an error, then gives up to the caller', () => {
    setMediaBase(HOST);
    const onError = vi.fn();
    render(<MediaImg src="/media/post/one.webp?exp=5&sig=s" alt="one" onError={onError} />);
    const img = screen.getByRole('img', { name: 'one' });
    expect(img).toHaveAttribute('src', `${HOST}/post/one.webp?exp=5&sig=s`);
    fireEvent.error(img);
    expect(img).toHaveAttribute('src', '/media/post/one.webp?exp=5&sig=s');
    expect(onError).not.toHaveBeenCalled();
    fireEvent.error(img);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('changes nothing without a content host: /media, and an error goes straight to the caller', () => {
    const onError = vi.fn();
    render(<MediaImg src="/media/post/two.webp" alt="two" onError={onError} />);
    const img = screen.getByRole('img', { name: 'two' });
    expect(img).toHaveAttribute('src', '/media/post/two.webp');
    fireEvent.error(img);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('switches to the content host when the config names it after the first paint', () => {
    render(<MediaImg src="/media/post/three.webp" alt="three" />);
    const img = screen.getByRole('img', { name: 'three' });
    expect(img).toHaveAttribute('src', '/media/post/three.webp');
    act(() => setMediaBase(HOST));
    expect(img).toHaveAttribute('src', `${HOST}/post/three.webp`);
  });

  it('gives an avatar the content host, then /media, then the default picture', () => {
    setMediaBase(HOST);
    render(<Avatar id="u9" url="/media/pfp/u9.jpeg?v=7" alt="ada" />);
    const img = screen.getByRole('img', { name: 'ada' });
    expect(img).toHaveAttribute('src', `${HOST}/pfp/u9.jpeg?v=7`);
    fireEvent.error(img);
    expect(img).toHaveAttribute('src', '/media/pfp/u9.jpeg?v=7');
    fireEvent.error(img);
    expect(img).toHaveAttribute('src', `${HOST}/pfp/default.jpeg`);
    fireEvent.error(img);
    expect(img).toHaveAttribute('src', '/media/pfp/default.jpeg');
  });

  it("shows a post's images from the content host, and their gallery slides from /media once the host failed", async () => {
    setMediaBase(HOST);
    renderWithApp(<PostImages urls={['/media/post/p1.webp?v=1', '/media/post/p2.webp?v=1']} />);
    const [first, second] = screen.getAllByRole('img');
    expect(first).toHaveAttribute('src', `${HOST}/post/p1.webp?v=1`);
    expect(second).toHaveAttribute('src', `${HOST}/post/p2.webp?v=1`);
    fireEvent.error(first!);
    expect(first).toHaveAttribute('src', '/media/post/p1.webp?v=1');
    fireEvent.click(first!.closest('button')!);
    await screen.findByRole('dialog');
    const slideSrcs = () => [...document.querySelectorAll('.yarl__slide img')].map((img) => img.getAttribute('src'));
    await waitFor(() => expect(slideSrcs()).toContain('/media/post/p1.webp?v=1'));
    expect(slideSrcs()).toContain(`${HOST}/post/p2.webp?v=1`);
  });

  it('falls a gallery slide back to /media when it fails on the content host', async () => {
    setMediaBase(HOST);
    renderWithApp(<Gallery open slides={[{ src: '/media/post/g1.webp?exp=9&sig=q', alt: 'g1' }]} onClose={() => undefined} />);
    await screen.findByRole('dialog');
    const slide = () => document.querySelector('.yarl__slide_current img') as HTMLImageElement;
    await waitFor(() => expect(slide()).toHaveAttribute('src', `${HOST}/post/g1.webp?exp=9&sig=q`));
    fireEvent.error(slide());
    await waitFor(() => expect(slide()).toHaveAttribute('src', '/media/post/g1.webp?exp=9&sig=q'));
  });
});
