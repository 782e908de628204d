import { describe, expect, it } from 'vitest';
import { containsProfanity } from './profanity';
import {
  lineCount, validateBio, validateCommentText, validateDescription, validateEmail, validateGroupName,
  validatePassword, validatePasswordRepeat, validatePostText, validateSlots, validateUsername,
} from './validation';

describe('username', () => {
  it.each([
    ['', 'new_username'],
    ['   ', 'new_username'],
    ['ab', 'min_username_length'],
    ['a'.repeat(33), 'max_username_length'],
    ['ann@home', 'username_at'],
    ['fuck_you', 'username_profanity'],
    ['curak99', 'username_profanity'],
    ['anna', null],
    ['a'.repeat(32), null],
    ['Žofie', null],
  ])('%s -> %s', (input, expected) => expect(validateUsername(input)).toBe(expected));

  it('refuses a non-string', () => expect(validateUsername(42)).toBe('new_username'));
});

describe('group name', () => {
  it.each([
    ['', 'new_groupname'],
    ['ab', 'min_groupname_length'],
    ['g'.repeat(33), 'max_groupname_length'],
    ['cats & dogs', 'group_and'],
    ['shit posting', 'groupname_profanity'],
    ['Rybáři Brno', null],
  ])('%s -> %s', (input, expected) => expect(validateGroupName(input)).toBe(expected));
});

describe('password', () => {
  it.each([
    ['', 'new_password'],
    ['abc def1', 'password_spaces'],
    ['abc\tdef1', 'password_spaces'],
    ['abcdef☃', 'password_invalid'],
    ['abc', 'min_password_length'],
    ['a'.repeat(129), 'max_password_length'],
    ['a'.repeat(128), null],
    ['Heslo#2026!', null],
    ['žluťoučký1', null],
  ])('%s -> %s', (input, expected) => expect(validatePassword(input)).toBe(expected));

  it('applies the sign-up form maximum when asked (both readings)', () => {
    expect(validatePassword('a'.repeat(33), 32)).toBe('max_password_length');
    expect(validatePassword('a'.repeat(32), 32)).toBeNull();
  });

  it('checks the repeat', () => {
    expect(validatePasswordRepeat('abcdef', 'abcdeg')).toBe('passwords_dont_match');
    expect(validatePasswordRepeat('abcdef', 'abcdef')).toBeNull();
  });
});

describe('email', () => {
  it.each([
    ['a@b.cz', null],
    ['  Anna@Example.COM ', null],
    ['anna', 'invalid_email'],
    ['anna@', 'invalid_email'],
    ['anna@localhost', 'invalid_email'],
    ['a b@c.cz', 'invalid_email'],
  ])('%s -> %s', (input, expected) => expect(validateEmail(input)).toBe(expected));
});

describe('texts', () => {
  it('counts lines of every newline style', () => {
    expect(lineCount('a\nb\r\nc\rd')).toBe(4);
  });

  it('applies post rules', () => {
    expect(validatePostText('   \n ')).toBe('blank_post');
    expect(validatePostText('x'.repeat(513))).toBe('max_post_length');
    expect(validatePostText('x'.repeat(512))).toBeNull();
    expect(validatePostText(Array(33).fill('x').join('\n'))).toBe('max_post_lines');
    expect(validatePostText(Array(32).fill('x').join('\n'))).toBeNull();
  });

  it('counts characters, not UTF-16 units', () => {
    expect(validatePostText('😀'.repeat(512))).toBeNull();
  });

  it('applies comment rules', () => {
    expect(validateCommentText('')).toBe('blank_comment');
    expect(validateCommentText('y'.repeat(513))).toBe('max_comment_length');
    expect(validateCommentText(Array(33).fill('y').join('\n'))).toBe('max_comment_lines');
  });

  it('lets bio and description be empty but bounded', () => {
    expect(validateBio('')).toBeNull();
    expect(validateBio('b'.repeat(513))).toBe('max_bio_length');
    expect(validateBio(Array(33).fill('b').join('\n'))).toBe('max_bio_lines');
    expect(validateDescription('')).toBeNull();
    expect(validateDescription('d'.repeat(101))).toBe('max_desc_length');
    expect(validateDescription(Array(33).fill('d').join('\n'))).toBe('max_desc_lines');
  });

  it('limits mention and group slots to ten', () => {
    const ten = Array.from({ length: 10 }, (_, i) => `n${i}`);
    expect(validateSlots(ten, ten)).toBeNull();
    expect(validateSlots([...ten, 'x'], [])).toBe('mentions_up_to');
    expect(validateSlots([], [...ten, 'x'])).toBe('groups_up_to');
  });
});

describe('profanity', () => {
  it('matches whole words in several languages, ignoring case and accents', () => {
    expect(containsProfanity('You are a BITCH')).toBe(true);
    expect(containsProfanity('ty čuráku')).toBe(false); // inflected forms are not whole-word matches
    expect(containsProfanity('ty curak')).toBe(true);
    expect(containsProfanity('Scunthorpe United')).toBe(false);
    expect(containsProfanity('classic assessment')).toBe(false);
  });
});
