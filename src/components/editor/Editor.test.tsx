import '../../test/setup';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '#core/limits';
import { getDb } from '../../lib/db/db';
import { attachFiles, pngFile, useTestFiles } from '../../test/files';
import { mockFetch, startOffline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import { Editor } from './Editor';
import { type EditorContent, type EditorOptions, useEditor } from './useEditor';

type HarnessProps = Omit<EditorOptions, 'draftKey' | 'maxImages' | 'textRef'> & { maxImages?: number; onChecked?: (content: EditorContent | null) => void };

/** An editor as a screen uses it. */
function Harness({ onChecked, maxImages = 2, ...options }: HarnessProps) {
  const textRef = useRef<HTMLTextAreaElement>(null);
  const editor = useEditor({ draftKey: 'post', maxImages, textRef, ...options });
  return (
    <Editor
      editor={editor}
      textRef={textRef}
      className="test-editor"
      rows={2}
      labels={{
        text: 'Text',
        placeholder: '',
        addMention: 'Add mention',
        groups: 'Groups',
        addGroup: 'Add group',
        attach: 'Attach',
        removeImage: (index) => `Remove image ${index}`,
        submit: 'Send',
      }}
      busy={false}
      onSubmit={() => onChecked?.(editor.check())}
    />
  );
}

async function render(props: HarnessProps) {
  renderWithApp(<Harness {...props} />);
  const text = screen.getByRole('textbox', { name: 'Text' });
  await waitFor(() => expect(text).toBeEnabled());
  return text;
}

const alert = () => screen.getByRole('alert');
const removeButtons = () => screen.queryAllByRole('button', { name: /Remove image/ });

beforeEach(async () => {
  useTestFiles();
  await startOffline('me', 'u9');
});

describe('Editor', () => {
  it('offers its slot, picture and warning controls only once the draft is read', async () => {
    renderWithApp(<Harness rules="post" addGroups contentWarnings />);
    const controls = () => [
      screen.getByRole('button', { name: /Add mention/ }),
      screen.getByRole('button', { name: /Add group/ }),
      screen.getByLabelText('Attach'),
      screen.getByRole('button', { name: /content warning/i }),
    ];
    // The draft is read from IndexedDB after the first paint: a click then would be lost.
    for (const control of controls()) expect(control).toBeDisabled();
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Text' })).toBeEnabled());
    for (const control of controls()) expect(control).toBeEnabled();
  });

  it('takes and counts characters as the server does, an emoji once', async () => {
    const text = await render({ rules: 'post' });
    const user = userEvent.setup();
    await user.click(text);
    await user.paste('😀'.repeat(300));
    await waitFor(() => expect([...(text as HTMLTextAreaElement).value]).toHaveLength(300));
    expect(screen.getByText('300/512')).toBeInTheDocument();
    // Typing goes on to the limit the server keeps, and stops there.
    await user.paste('😀'.repeat(300));
    await waitFor(() => expect([...(text as HTMLTextAreaElement).value]).toHaveLength(LIMITS.textMaxLength));
    expect(screen.getByText('512/512')).toBeInTheDocument();
    expect(text).toHaveAttribute('maxLength', String(2 * LIMITS.textMaxLength));
  });

  it('checks the text with the rules of its kind, and gives a too long text its count', async () => {
    const checked = vi.fn();
    const long = 'x'.repeat(LIMITS.textMaxLength + 1);
    const text = await render({ rules: 'comment', onChecked: checked });
    fireEvent.change(text, { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(alert()).toHaveTextContent('A comment cannot be empty.');
    fireEvent.change(text, { target: { value: long } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(alert()).toHaveTextContent(`A comment can be at most 512 characters long. (513/512)`);
    expect(text).toHaveAttribute('aria-invalid', 'true');
    expect(checked).toHaveBeenLastCalledWith(null);
  });

  it('hands over the text and only the slots with something typed in them', async () => {
    const checked = vi.fn();
    const text = await render({ rules: 'post', addGroups: true, onChecked: checked });
    fireEvent.change(text, { target: { value: 'hi @@&&' } });
    expect(text).toHaveValue('hi ');
    fireEvent.click(screen.getByRole('button', { name: /Add mention/ }));
    expect(screen.getAllByRole('combobox', { name: 'Group name' })).toHaveLength(1);
    const [first] = screen.getAllByRole('combobox', { name: 'Username' });
    fireEvent.change(first!, { target: { value: ' bob ' } });
    fireEvent.keyDown(text, { key: 'Enter', ctrlKey: true });
    expect(checked).toHaveBeenLastCalledWith({ text: 'hi ', mentions: [{ query: ' bob ', id: null }], groups: [], images: [] });
  });

  it('adds group slots only where groups may be added, and stops each kind of slot at its limit', async () => {
    const text = await render({ rules: 'comment' });
    expect(screen.queryByRole('button', { name: /Add group/ })).toBeNull();
    fireEvent.change(text, { target: { value: 'a && b' } });
    expect(text).toHaveValue('a && b');
    expect(screen.queryByRole('group', { name: 'Groups' })).toBeNull();
    for (let i = 0; i < LIMITS.mentionsPerPost; i++) fireEvent.click(screen.getByRole('button', { name: /Add mention/ }));
    expect(screen.getAllByRole('combobox', { name: 'Username' })).toHaveLength(LIMITS.mentionsPerPost);
    expect(alert()).toBeEmptyDOMElement();
    fireEvent.click(screen.getByRole('button', { name: /Add mention/ }));
    expect(screen.getAllByRole('combobox', { name: 'Username' })).toHaveLength(LIMITS.mentionsPerPost);
    expect(alert()).toHaveTextContent('You can mention at most 10 users.');
    // Typing clears the message.
    fireEvent.change(text, { target: { value: 'a' } });
    expect(alert()).toBeEmptyDOMElement();
  });

  it('highlights a slot’s first suggestion so Enter takes it, and hides the list while the focus is elsewhere', async () => {
    mockFetch((call) =>
      call.path === '/api/search/users'
        ? { body: [{ _id: 'u2', name: 'bob' }, { _id: 'u3', name: 'bobby' }] }
        : { status: 404, body: { message: 'error/not_found' } },
    );
    const checked = vi.fn();
    const user = userEvent.setup();
    const text = await render({ rules: 'post', onChecked: checked });
    await user.click(screen.getByRole('button', { name: /Add mention/ }));
    const slot = screen.getByRole('combobox', { name: 'Username' });
    await user.type(slot, 'bo');
    await screen.findByRole('listbox', { name: 'Suggestions' }, { timeout: 2000 });
    await user.click(text);
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(slot).toHaveAttribute('aria-expanded', 'false');
    await user.click(slot);
    expect(screen.getAllByRole('option')[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    expect(slot).toHaveValue('bob');
    expect(checked).not.toHaveBeenCalled();
  });

  it('moves through a slot’s suggestions with the arrows, picks one on Enter without sending, and closes them on Escape', async () => {
    mockFetch((call) =>
      call.path === '/api/search/mygroups'
        ? { body: [{ _id: 'g1', name: 'demo_garden' }, { _id: 'g2', name: 'demo_garage' }] }
        : { status: 404, body: { message: 'error/not_found' } },
    );
    const checked = vi.fn();
    const user = userEvent.setup();
    const text = await render({ rules: 'post', addGroups: true, onChecked: checked });
    await user.type(text, 'Tools to lend');
    await user.click(screen.getByRole('button', { name: /Add group/ }));
    const slot = screen.getByRole('combobox', { name: 'Group name' });
    await user.type(slot, 'demo_gar');
    const list = await screen.findByRole('listbox', { name: 'Suggestions' }, { timeout: 2000 });
    const options = within(list).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['&demo_garden', '&demo_garage']);
    expect(slot).toHaveAttribute('aria-expanded', 'true');
    expect(slot).toHaveAttribute('aria-controls', list.id);
    // The first suggestion is highlighted from the start.
    expect(slot).toHaveAttribute('aria-activedescendant', options[0]!.id);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}');
    expect(slot).toHaveAttribute('aria-activedescendant', options[1]!.id);
    expect(options[0]).toHaveAttribute('aria-selected', 'false');
    await user.keyboard('{ArrowDown}');
    expect(slot).toHaveAttribute('aria-activedescendant', options[0]!.id);
    await user.keyboard('{ArrowUp}');
    expect(slot).toHaveAttribute('aria-activedescendant', options[1]!.id);

    // The first Escape only closes the list; the next one is the page's (a dialog around the editor closes).
    const pageKeys = vi.fn();
    const onPageKey = (event: KeyboardEvent) => pageKeys(event.key);
    document.addEventListener('keydown', onPageKey);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(slot).toHaveAttribute('aria-expanded', 'false');
    expect(slot).not.toHaveAttribute('aria-activedescendant');
    expect(pageKeys).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    document.removeEventListener('keydown', onPageKey);
    expect(pageKeys).toHaveBeenCalledWith('Escape');
    // Down opens the list again, on its first suggestion.
    await user.keyboard('{ArrowDown}');
    expect(slot).toHaveAttribute('aria-activedescendant', screen.getAllByRole('option')[0]!.id);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(checked).not.toHaveBeenCalled();
    expect(slot).toHaveValue('demo_garage');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(slot).toHaveFocus();

    // With the slot filled, Enter there still does not send; the text's Ctrl+Enter does, with the picked group.
    await user.keyboard('{Enter}');
    expect(checked).not.toHaveBeenCalled();
    fireEvent.keyDown(text, { key: 'Enter', ctrlKey: true });
    expect(checked).toHaveBeenLastCalledWith({ text: 'Tools to lend', mentions: [], groups: [{ query: 'demo_garage', id: 'g2' }], images: [] });
  });

  it('counts an image named like a picked GIF as any other where the editor has no GIFs', async () => {
    await getDb().drafts.put({ key: 'post', text: '', mentions: [], groups: [], images: [{ blob: new Blob(['g']), name: 'tenor-abc.gif' }], updatedAt: 1 });
    await render({ rules: 'comment', maxImages: 1 });
    attachFiles([pngFile('photo.png')]);
    expect(alert()).toHaveTextContent('You can attach only 1 image.');
    expect(removeButtons()).toHaveLength(1);
  });

  it('replaces a picked GIF by photos where the editor has GIFs', async () => {
    await getDb().drafts.put({ key: 'post', text: '', mentions: [], groups: [], images: [{ blob: new Blob(['g']), name: 'tenor-abc.gif' }], updatedAt: 1 });
    const checked = vi.fn();
    await render({ rules: 'post', gifs: true, onChecked: checked });
    attachFiles([pngFile('a.png'), pngFile('b.png')]);
    expect(alert()).toBeEmptyDOMElement();
    expect(removeButtons()).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Remove image 1' }));
    expect(removeButtons()).toHaveLength(1);
  });

  it('says a returned draft was not published only where asked to, always with the reason', async () => {
    await getDb().drafts.put({ key: 'post', text: 'back', mentions: [], groups: [], images: [], updatedAt: 1, returnedError: 'banned' });
    const first = renderWithApp(<Harness rules="post" returnedNotice="post" />);
    await waitFor(() => expect(alert()).toHaveTextContent('This post was not published: You are banned from this group.'));
    first.unmount();
    renderWithApp(<Harness rules="comment" />);
    await waitFor(() => expect(alert()).toHaveTextContent('You are banned from this group.'));
    expect(alert()).not.toHaveTextContent('not published');
  });
});
