import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, onTestFinished } from 'vitest';
import { renderWithApp } from '../test/render';
import { ImagePicker } from './ImagePicker';

function Field({ current }: { current?: string }) {
  const [file, setFile] = useState<File | null>(null);
  return <ImagePicker label="Group picture" file={file} onFile={setFile} currentUrl={current} />;
}

describe('ImagePicker', () => {
  it('shows the chosen picture and its name, and releases the preview when it goes', () => {
    const created: string[] = [];
    const revoked: string[] = [];
    // jsdom makes no object URLs: these stand in for the browser's, and go after the test.
    const { createObjectURL, revokeObjectURL } = URL;
    onTestFinished(() => void Object.assign(URL, { createObjectURL, revokeObjectURL }));
    Object.assign(URL, {
      createObjectURL: () => {
        created.push(`blob:preview-${created.length}`);
        return created[created.length - 1];
      },
      revokeObjectURL: (url: string) => revoked.push(url),
    });
    const { unmount } = renderWithApp(<Field />);
    const input = screen.getByLabelText('Group picture');
    expect(input).toHaveAttribute('type', 'file');
    const preview = screen.getByTestId('image-picker-preview');
    expect(preview.querySelector('img')).toBeNull();
    expect(screen.getByText('Choose a picture')).toBeInTheDocument();

    fireEvent.change(input, { target: { files: [new File(['img'], 'bird.png', { type: 'image/png' })] } });
    expect(preview.querySelector('img')).toHaveAttribute('src', 'blob:preview-0');
    expect(screen.getByText('bird.png')).toBeInTheDocument();
    expect(screen.getByText('Change picture')).toBeInTheDocument();
    unmount();
    expect(revoked).toEqual(['blob:preview-0']);
  });

  it('shows the picture there is now until another is chosen, in Czech too', () => {
    renderWithApp(<Field current="/media/gp/g1.jpeg?v=2" />, { lng: 'cs' });
    expect(screen.getByTestId('image-picker-preview').querySelector('img')).toHaveAttribute('src', '/media/gp/g1.jpeg?v=2');
    expect(screen.getByText('Změnit obrázek')).toBeInTheDocument();
  });
});
