import { describe, expect, it } from 'vitest';
import { containsProfanity } from './profanity';

// "blue waffle" is a phrase of the English list; neither of its words is a bad word alone.
describe('profane phrases', () => {
  it('finds a phrase as a run of whole words', () => {
    expect(containsProfanity('blue waffle')).toBe(true);
    expect(containsProfanity('the BLUE Waffle here')).toBe(true);
  });

  it('does not find half a phrase, or a phrase inside longer words', () => {
    expect(containsProfanity('blue')).toBe(false);
    expect(containsProfanity('waffle')).toBe(false);
    expect(containsProfanity('blue waffles')).toBe(false);
    expect(containsProfanity('true blue waffle-iron fan')).toBe(true);
    expect(containsProfanity('xblue waffle')).toBe(false);
    expect(containsProfanity('bluewaffle')).toBe(false);
    expect(containsProfanity('waffle blue')).toBe(false);
  });

  it('reads any run of separators between the words of a phrase as one gap', () => {
    expect(containsProfanity('blue  -- waffle')).toBe(true);
    expect(containsProfanity('blue_waffle')).toBe(true);
  });
});

describe('digits separate words', () => {
  it('finds a bad word next to digits', () => {
    expect(containsProfanity('x1fuck')).toBe(true);
    expect(containsProfanity('99fuck')).toBe(true);
    expect(containsProfanity('blue2waffle')).toBe(true);
  });
});

describe('texts without words', () => {
  it.each(['', ' ', '?!', '...', '123', '-- --'])('finds nothing in %j', (text) => {
    expect(containsProfanity(text)).toBe(false);
  });
});

describe('names that look like a bad word only to a font', () => {
  // A real name whose i reads as an l is taken; the bad word itself is found in any case or disguise.
  it.each([
    ['Cui', false],
    ['Li Cui', false],
    ['cul', true],
    ['CUL', true],
    ['cu\u200Bl', true],
  ])('reads %j as profane: %s', (text, profane) => expect(containsProfanity(text)).toBe(profane));
});
