import { describe, expect, it } from 'vitest';
import { CARD_IMAGES, EAGER_CARDS, IMAGE_BOX, listingImagePriority } from './post-layout';

const withPictures = { media: ['a'] };
const without = { media: [] };

describe("a listing's pictures", () => {
  it('load the first pictured card first, the rest of the first screen at once, and the others lazily', () => {
    const posts = [without, withPictures, withPictures, withPictures, withPictures];
    expect(posts.map((_, index) => listingImagePriority(posts, index))).toEqual(['eager', 'high', 'eager', 'lazy', 'lazy']);
    expect(EAGER_CARDS).toBe(3);
  });

  it('give no card the first place when none of the first screen has pictures, and none outside the list', () => {
    const posts = [without, { media: null }, {}, withPictures];
    expect(posts.map((_, index) => listingImagePriority(posts, index))).toEqual(['eager', 'eager', 'eager', 'lazy']);
    expect(listingImagePriority(posts, -1)).toBe('lazy');
    expect(listingImagePriority([withPictures], 0)).toBe('high');
  });

  it('keep a box of the layout’s shape for one picture and for two', () => {
    expect(CARD_IMAGES).toBe(2);
    expect(IMAGE_BOX).toEqual({ 1: { ratio: '4 / 3', width: 800, height: 600 }, 2: { ratio: '2 / 1', width: 400, height: 400 } });
  });
});
