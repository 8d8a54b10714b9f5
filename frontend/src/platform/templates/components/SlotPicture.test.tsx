import { fireEvent, render, screen } from '@testing-library/react';
import { isBrowserAddress, SlotPicture } from './SlotPicture';

describe('SlotPicture', () => {
  it('opens same-origin paths only', () => {
    expect(isBrowserAddress('/diyvrbt/material/file/7/original?ticket=x')).toBe(true);
    expect(isBrowserAddress('t/qs/u/2/materials/a/original.png')).toBe(false);
    expect(isBrowserAddress('//elsewhere.example/a.png')).toBe(false);
    expect(isBrowserAddress('')).toBe(false);
  });

  it('shows an icon for a storage key and for a picture that does not load', () => {
    const { rerender } = render(<SlotPicture src="t/qs/u/2/materials/a/original.png" alt="图片" />);
    expect(screen.getByTestId('slot-picture-none')).toBeInTheDocument();
    expect(screen.queryByTestId('slot-picture')).toBeNull();

    rerender(<SlotPicture src="/gone.png" alt="图片" />);
    fireEvent.error(screen.getByTestId('slot-picture'));
    expect(screen.getByTestId('slot-picture-none')).toBeInTheDocument();

    rerender(<SlotPicture src="/other.png" alt="图片" />);
    expect(screen.getByTestId('slot-picture')).toHaveAttribute('src', '/other.png');
  });
});
