import { describe, expect, it } from 'vitest';
import { CLIENT_ERROR_KEYS, ERROR_KEYS, errorMessage, INFO_KEYS, infoMessage, isClientErrorKey, isErrorKey, isInfoKey, parseErrorMessage, parseInfoMessage } from './errors';

describe('message catalogue', () => {
  it('lists every key once', () => {
    expect(new Set(ERROR_KEYS).size).toBe(ERROR_KEYS.length);
    expect(new Set(INFO_KEYS).size).toBe(INFO_KEYS.length);
  });

  it('writes an error key as error/<key> and an info key as info/<key>', () => {
    expect(errorMessage('banned')).toBe('error/banned');
    expect(infoMessage('joined_group')).toBe('info/joined_group');
  });

  it('knows only catalogue keys as error keys', () => {
    expect(isErrorKey('banned')).toBe(true);
    expect(isErrorKey('joined_group')).toBe(false); // an info key, not an error
    expect(isErrorKey('error/banned')).toBe(false); // a message, not a key
    expect(isErrorKey('')).toBe(false);
  });
});

describe('reading an error message back', () => {
  it('answers the key of a catalogue error message', () => {
    expect(parseErrorMessage('error/banned')).toBe('banned');
    expect(parseErrorMessage(errorMessage('idempotency_mismatch'))).toBe('idempotency_mismatch');
  });

  it('answers nothing for an unknown key under the error prefix', () => {
    expect(parseErrorMessage('error/no_such_key')).toBeUndefined();
    expect(parseErrorMessage('error/')).toBeUndefined();
  });

  it('answers nothing unless the message starts with the error prefix', () => {
    expect(parseErrorMessage('banned')).toBeUndefined();
    expect(parseErrorMessage('info/joined_group')).toBeUndefined();
    // Same length of prefix as error/, so only the prefix itself tells them apart.
    expect(parseErrorMessage('fatal/banned')).toBeUndefined();
    expect(parseErrorMessage('see error/banned')).toBeUndefined();
  });

  it.each([undefined, null, 42, {}, ['error/banned']])('answers nothing for the non-string %j', (value) => {
    expect(parseErrorMessage(value)).toBeUndefined();
  });
});

describe('reading an info message back', () => {
  it('gives the key of each catalogued info message', () => {
    for (const key of INFO_KEYS) expect(parseInfoMessage(infoMessage(key))).toBe(key);
  });

  it('gives nothing for an error message, an unknown key or a non-string', () => {
    expect(parseInfoMessage(`error/${INFO_KEYS[0]}`)).toBeUndefined();
    expect(parseInfoMessage(INFO_KEYS[0])).toBeUndefined();
    expect(parseInfoMessage('info/no_such_info')).toBeUndefined();
    expect(parseInfoMessage(42)).toBeUndefined();
  });
});

describe('telling the kinds of keys apart', () => {
  it('knows info keys and client error keys from other strings', () => {
    for (const key of INFO_KEYS) expect(isInfoKey(key)).toBe(true);
    for (const key of CLIENT_ERROR_KEYS) expect(isClientErrorKey(key)).toBe(true);
    expect(isInfoKey('no_such_info')).toBe(false);
    expect(isInfoKey(`info/${INFO_KEYS[0]}`)).toBe(false);
    expect(isClientErrorKey('no_such_error')).toBe(false);
    expect(isClientErrorKey(`error/${CLIENT_ERROR_KEYS[0]}`)).toBe(false);
  });
});
