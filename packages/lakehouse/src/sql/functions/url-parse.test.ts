// The URL functions as java.net.URI reads a URL, and Java's URL encoding; from_base / to_base.
import { describe, expect, test } from '@jest/globals';
import { fromBase, toBase } from './math';
import { parseUrl, urlDecode, urlEncode, urlParameter } from './url-parse';

describe('URL functions', () => {
  test('the parts of a URL, percent-decoded as URI.getPath/getQuery/getFragment decode them', () => {
    expect(parseUrl('http://user@www.Example.com:8080/a%20b?x=1&y=%41#f%2F')).toEqual({
      protocol: 'http',
      host: 'www.Example.com',
      port: 8080,
      path: '/a b',
      query: 'x=1&y=A',
      rawQuery: 'x=1&y=%41',
      fragment: 'f/',
    });
    expect(parseUrl('mailto:a@b.c')).toMatchObject({ protocol: 'mailto', host: null, path: 'a@b.c' });
    // java.net.URI refuses a space or a bad escape: the functions answer NULL.
    expect(parseUrl('http://a.b/x y')).toBeUndefined();
    expect(parseUrl('http://a.b/%zz')).toBeUndefined();
  });

  test('url_extract_parameter reads the raw query: the first value, empty without `=`, NULL when absent', () => {
    expect(urlParameter('http://a.b/p?x=1&y=%41&x=2&z', 'x')).toBe('1');
    expect(urlParameter('http://a.b/p?x=1&y=%41', 'y')).toBe('%41');
    expect(urlParameter('http://a.b/p?z', 'z')).toBe('');
    expect(urlParameter('http://a.b/p?x=1', 'w')).toBeNull();
  });

  test("url_encode / url_decode are Java's URLEncoder / URLDecoder", () => {
    expect(urlEncode('a b/c*d~é')).toBe('a+b%2Fc*d%7E%C3%A9');
    expect(urlDecode('a+b%2Fc%C3%A9')).toBe('a b/cé');
    expect(() => urlDecode('%z1')).toThrow('URLDecoder: Illegal hex characters');
  });
});

describe('from_base / to_base', () => {
  test('base 2 to 36, with Trino messages for bad digits and radixes', () => {
    expect(fromBase('ff', 16)).toBe(255n);
    expect(fromBase('-101', 2)).toBe(-5n);
    expect(toBase(255n, 2)).toBe('11111111');
    expect(() => fromBase('zz', 16)).toThrow('Not a valid base-16 number: zz');
    expect(() => fromBase('1', 37)).toThrow('Radix must be between 2 and 36');
  });
});
