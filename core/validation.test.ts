import { describe, expect, it } from 'vitest';
import { LIMITS } from './limits';
import { containsProfanity } from './profanity';
import {
  isIdShaped, lineCount, normalizeContentWarning, normalizeEmail, validateBio, validateCommentText, validateContentWarning, validateRegistrationReason, validateReportReason,
  validateDescription, validateEmail, validateGroupName, validateImageAlt, validatePassword, validatePasswordRepeat,
  postImagesMax, validateImages, validatePostText, validateRemoteUsername, validateSlots, validateUsername,
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
    // A real name is not read as a swear word by folding its i into an l ("cul").
    ['Cui', null],
    // As a person reads them: invisible, joining and direction characters do not make a name.
    ['\u200B\u200B\u200B', 'new_username'],
    ['\u3164\u3164\u3164', 'new_username'],
    ['\u0301\u0301\u0301', 'new_username'],
    ['bo\u200Bb', 'username_characters'],
    ['bob\u200D', 'username_characters'],
    ['\u202Ebob', 'username_characters'],
    ['bob\u2067', 'username_characters'],
    ['b\u0001ob', 'username_characters'],
    ['bo\u3164b', 'username_characters'],
    ['bo\u2800b', 'username_characters'],
    ['b\u00ADob', 'username_characters'],
    ['bob\tsmith', 'username_characters'],
    // NFKC first: a full-width name is a plain one, and its length is the normalised one.
    ['ｂｏｂ', null],
    ['\uFB01\uFB01', null],
    ['\u00A0bob\u00A0', null],
  ])('%j -> %s', (input, expected) => expect(validateUsername(input)).toBe(expected));

  it('refuses a non-string', () => expect(validateUsername(42)).toBe('new_username'));
});

describe('remote username', () => {
  it.each([
    // As Mastodon, Misskey and Lemmy name accounts, one letter and rude words included: their rules, not a sign-up's here.
    ['a', null],
    ['Zoe_van-Dyk.2', null],
    ['fuck_you', null],
    ['Žofie', null],
    ['x'.repeat(LIMITS.remoteUsernameMax), null],
    ['x'.repeat(LIMITS.remoteUsernameMax + 1), 'max_username_length'],
    ['', 'new_username'],
    ['\u200B', 'new_username'],
    // What hides or turns text around, as in a local name.
    ['admin\u202E@host \u200B', 'username_characters'],
    ['adm\u202Ein', 'username_characters'],
    ['bo\u200Bb', 'username_characters'],
    ['bob\u2067', 'username_characters'],
    // No more than a handle in a text can name, spelled as NFKC leaves it: the name is not changed here.
    ['ann@home', 'username_characters'],
    ['ann smith', 'username_characters'],
    [' bob', 'username_characters'],
    ['bob/../x', 'username_characters'],
    ['ｂｏｂ', 'username_characters'],
  ])('%j -> %s', (input, expected) => expect(validateRemoteUsername(input)).toBe(expected));

  it('refuses a non-string', () => expect(validateRemoteUsername(null)).toBe('new_username'));
});

describe('group name', () => {
  it.each([
    ['', 'new_groupname'],
    ['ab', 'min_groupname_length'],
    ['g'.repeat(33), 'max_groupname_length'],
    ['cats & dogs', 'group_and'],
    ['shit posting', 'groupname_profanity'],
    ['Rybáři Brno', null],
    // As a person reads them, and never shaped like an id (a path segment of that shape is the id).
    ['\u200B\u200B\u200B', 'new_groupname'],
    ['\u0301\u0301\u0301', 'new_groupname'],
    ['cats\u200Bclub', 'groupname_characters'],
    ['\u202Ecats', 'groupname_characters'],
    ['cats\u0000', 'groupname_characters'],
    ['0123456789abcdef01234567', 'groupname_reserved'],
    ['0123456789ABCDEF01234567', 'groupname_reserved'],
    ['０１２３４５６７８９ａｂｃｄｅｆ０１２３４５６７', 'groupname_reserved'],
    ['0123456789abcdef0123456', null],
    ['0123456789abcdef012345678', null],
    ['0123456789abcdef0123456g', null],
  ])('%j -> %s', (input, expected) => expect(validateGroupName(input)).toBe(expected));

  it('shapes ids as the server makes them', () => {
    expect(isIdShaped('6b04965a2ffa8a68d6d80fbb')).toBe(true);
    expect(isIdShaped('6b04965a2ffa8a68d6d80fb')).toBe(false);
  });
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

  // As a person reads them: invisible and blank characters are no text, and do not count.
  it.each([
    ['\u200B\u200C\u200D', 'blank_post'],
    ['\u3164', 'blank_post'],
    ['\u2800\u2800', 'blank_post'],
    ['\u115F\u1160\uFFA0', 'blank_post'],
    ['\u200E\u202A\u2066', 'blank_post'],
    ['\u00A0\u3000\u2028', 'blank_post'],
    ['\u0301\u0301\u0301', 'blank_post'],
  ])('post %j -> %s', (input, expected) => {
    expect(validatePostText(input)).toBe(expected);
    expect(validateCommentText(input)).toBe(expected.replace('post', 'comment'));
  });

  it('checks the length after trimming', () => {
    const max = 'x'.repeat(LIMITS.textMaxLength);
    expect(validatePostText(`   ${max}\n\n  `)).toBeNull();
    expect(validatePostText(`\u3000${max}\u2800`)).toBeNull();
    expect(validatePostText(`\u200B${max}\u200B`)).toBeNull();
    expect(validatePostText(`${max}x`)).toBe('max_post_length');
    expect(validateCommentText(` ${max}x `)).toBe('max_comment_length');
    expect(validateBio(`${'b'.repeat(LIMITS.bioMaxLength)}   `)).toBeNull();
    expect(validateDescription(` ${'d'.repeat(LIMITS.descriptionMaxLength + 1)} `)).toBe('max_desc_length');
  });

  it('counts lines by every line break', () => {
    for (const br of ['\n', '\r\n', '\r', '\u2028', '\u2029', '\u0085', '\v', '\f']) {
      expect(validatePostText(Array(LIMITS.textMaxLines).fill('l').join(br))).toBeNull();
      expect(validatePostText(Array(LIMITS.textMaxLines + 1).fill('l').join(br))).toBe('max_post_lines');
      expect(validateBio(Array(LIMITS.textMaxLines + 1).fill('l').join(br))).toBe('max_bio_lines');
    }
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

describe('profanity behind disguises', () => {
  it.each([
    'f\u200Buck',
    'f\u00ADuck',
    'f\u2060uck',
    'ｆｕｃｋ',
    'fսck' /* Armenian u */,
    'ѕhit' /* Cyrillic s */,
    'ВООВЅ' /* Cyrillic capitals */,
    '𝐟𝐮𝐜𝐤',
  ])('catches %j', (text) => expect(containsProfanity(text)).toBe(true));

  it('refuses disguised names', () => {
    expect(validateUsername('f\u200Buck_you')).toBe('username_characters');
    expect(validateUsername('ｆｕｃｋ')).toBe('username_profanity');
    expect(validateGroupName('ѕhit posting')).toBe('groupname_profanity');
  });

  it('still lets clean words through', () => {
    expect(containsProfanity('Scunthorpe United')).toBe(false);
    expect(containsProfanity('Dobrý den, Brno')).toBe(false);
  });
});

describe('boundaries of names and passwords', () => {
  it('accepts a username of exactly the minimum length and refuses one character less', () => {
    expect(validateUsername('a'.repeat(LIMITS.usernameMin))).toBeNull();
    expect(validateUsername('a'.repeat(LIMITS.usernameMin - 1))).toBe('min_username_length');
    expect(validateUsername('a'.repeat(LIMITS.usernameMax))).toBeNull();
    expect(validateUsername('a'.repeat(LIMITS.usernameMax + 1))).toBe('max_username_length');
  });

  it('accepts a group name of exactly the minimum length and refuses one character less', () => {
    expect(validateGroupName('g'.repeat(LIMITS.groupNameMin))).toBeNull();
    expect(validateGroupName('g'.repeat(LIMITS.groupNameMin - 1))).toBe('min_groupname_length');
    expect(validateGroupName('g'.repeat(LIMITS.groupNameMax))).toBeNull();
  });

  it('accepts a password of exactly the minimum length and refuses one character less', () => {
    expect(validatePassword('a'.repeat(LIMITS.passwordMin))).toBeNull();
    expect(validatePassword('a'.repeat(LIMITS.passwordMin - 1))).toBe('min_password_length');
  });

  it.each([undefined, null, 123456, ['abcdef']])('asks for a password when given the non-string %j', (value) => {
    expect(validatePassword(value)).toBe('new_password');
  });

  it('refuses a non-string group name as missing', () => expect(validateGroupName(null)).toBe('new_groupname'));
});

describe('email addresses', () => {
  /** An address of exactly `length` characters. */
  const address = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;

  it('accepts an address of 254 characters and refuses one of 255', () => {
    expect(validateEmail(address(254))).toBeNull();
    expect(validateEmail(address(255))).toBe('invalid_email');
  });

  it('measures the address after trimming it', () => {
    expect(validateEmail(` ${address(254)} `)).toBeNull();
  });

  it('stores an address trimmed and lowercased', () => {
    expect(normalizeEmail('  Anna@Example.COM ')).toBe('anna@example.com');
  });

  it.each([
    ['anna@mail.example.com', null],
    ['a@b.c', null],
    ['anna@example.com>', 'invalid_email'],
    ['anna@example.com anna@example.org', 'invalid_email'],
    ['<anna@example.com', 'invalid_email'],
    ['anna@-example.com', 'invalid_email'],
    ['anna@example-.com', 'invalid_email'],
    ['anna@example..com', 'invalid_email'],
  ])('%s -> %s', (input, expected) => expect(validateEmail(input)).toBe(expected));

  it.each([undefined, null, 42, {}])('refuses the non-string %j', (value) => {
    expect(validateEmail(value)).toBe('invalid_email');
  });
});

describe('texts that are not strings', () => {
  it('calls a missing post or comment blank', () => {
    expect(validatePostText(undefined)).toBe('blank_post');
    expect(validateCommentText(null)).toBe('blank_comment');
  });

  it('refuses a non-string bio or description by its length rule, as they may be blank', () => {
    expect(validateBio(42)).toBe('max_bio_length');
    expect(validateDescription({})).toBe('max_desc_length');
  });
});

describe('image descriptions and content warnings', () => {
  it('takes an image description up to its limit, measured trimmed', () => {
    expect(validateImageAlt(undefined)).toBeNull();
    expect(validateImageAlt('')).toBeNull();
    expect(validateImageAlt('a'.repeat(LIMITS.imageAltMaxLength))).toBeNull();
    expect(validateImageAlt(`  ${'a'.repeat(LIMITS.imageAltMaxLength)}  `)).toBeNull();
    expect(validateImageAlt('a'.repeat(LIMITS.imageAltMaxLength + 1))).toBe('max_alt_length');
    expect(validateImageAlt(42)).toBe('max_alt_length');
  });

  it('takes a content warning up to its limit, kept on one line', () => {
    expect(validateContentWarning(null)).toBeNull();
    expect(validateContentWarning(undefined)).toBeNull();
    expect(validateContentWarning('')).toBeNull();
    expect(validateContentWarning(42)).toBe('max_content_warning_length');
    expect(validateContentWarning({ toString: () => 'x' })).toBe('max_content_warning_length');
    expect(validateContentWarning('x'.repeat(LIMITS.contentWarningMaxLength))).toBeNull();
    expect(validateContentWarning('x'.repeat(LIMITS.contentWarningMaxLength + 1))).toBe('max_content_warning_length');
    expect(normalizeContentWarning('  spiders\n and   snakes ')).toBe('spiders and snakes');
    expect(normalizeContentWarning(' \n ')).toBeNull();
    expect(normalizeContentWarning(undefined)).toBeNull();
  });

  it('takes a report reason that says something, up to its limit after trimming', () => {
    expect(validateReportReason('spam')).toBeNull();
    expect(validateReportReason('a'.repeat(LIMITS.reportReasonMaxLength))).toBeNull();
    expect(validateReportReason(` \u200B${'a'.repeat(LIMITS.reportReasonMaxLength)} \n`)).toBeNull();
    expect(validateReportReason('😀'.repeat(LIMITS.reportReasonMaxLength))).toBeNull();
    expect(validateReportReason('a'.repeat(LIMITS.reportReasonMaxLength + 1))).toBe('max_report_reason_length');
    expect(validateReportReason('')).toBe('report_reason_required');
    expect(validateReportReason(' \n\u200B ')).toBe('report_reason_required');
    expect(validateReportReason(undefined)).toBe('report_reason_required');
    expect(validateReportReason(7)).toBe('report_reason_required');
  });
});

describe('pictures of a post', () => {
  const photo = { animated: false };
  const gif = { animated: true };

  it('takes two on a post and one on a reply', () => {
    expect(postImagesMax(false)).toBe(LIMITS.imagesPerPost);
    expect(postImagesMax(true)).toBe(LIMITS.imagesPerComment);
    expect(validateImages([photo, photo], postImagesMax(false))).toBeNull();
    expect(validateImages([photo, photo], postImagesMax(true))).toBe('too_many_images');
    expect(validateImages([photo, photo, photo], postImagesMax(false))).toBe('too_many_images');
  });

  it('takes photos or a GIF, never both', () => {
    expect(validateImages([gif], postImagesMax(false))).toBeNull();
    expect(validateImages([gif, photo], postImagesMax(false))).toBe('gif_alone');
    expect(validateImages([photo, gif], postImagesMax(false))).toBe('gif_alone');
  });
});

describe('why someone asks to join', () => {
  it('requires a reason that shows something', () => {
    for (const reason of [undefined, null, 42, '', ' \n\t ']) expect(validateRegistrationReason(reason)).toBe('registration_reason_required');
  });

  it('accepts a reason up to the limit and refuses one character more', () => {
    expect(validateRegistrationReason('I write about birds')).toBeNull();
    expect(validateRegistrationReason('x'.repeat(LIMITS.registrationReasonMaxLength))).toBeNull();
    expect(validateRegistrationReason('x'.repeat(LIMITS.registrationReasonMaxLength + 1))).toBe('max_registration_reason_length');
  });
});

describe('characters of a password', () => {
  it('takes letters of any script and digits, alone or together', () => {
    expect(validatePassword('abcdefgh')).toBeNull();
    expect(validatePassword('12345678')).toBeNull();
    expect(validatePassword('пароль2026')).toBeNull();
  });

  it.each(['abcdefg😀', '😀abcdefg', 'abcd€efg'])('refuses %j: one character is neither a letter, a digit nor a listed symbol', (password) => {
    expect(validatePassword(password)).toBe('password_invalid');
  });
});

describe('an image without a description', () => {
  it('is fine whether the description is missing or null', () => {
    expect(validateImageAlt(null)).toBeNull();
    expect(validateImageAlt(undefined)).toBeNull();
    expect(validateImageAlt(7)).toBe('max_alt_length');
  });
});
