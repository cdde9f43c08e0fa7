import { parse } from 'regexparam';
import { isPortalPage, pagePattern, PORTAL_PAGES } from './portal-pages';

const PATHS = [
  '/',
  '',
  '/servers',
  '/servers/',
  '/SERVERS',
  '/servers/x',
  '/servers//',
  '/server',
  '/serversx',
  '/a',
  '/a/',
  '/a/b',
  '/a/b/c',
  '/a//c',
  '/a/b.c/c',
  '/a/%20/c',
  '//a',
  '/metrics',
];

describe('pagePattern', () => {
  it.each(['/', '/servers', '/a/:id', '/a/:id/c', '/:x', '/node-dashboard', '/a/:c_d'])(
    'should match what wouter (regexparam) matches for %s',
    (pattern) => {
      const wouter = parse(pattern).pattern;
      for (const path of PATHS) {
        expect([path, pagePattern(pattern).test(path)]).toEqual([path, wouter.test(path)]);
      }
    },
  );

  it('should refuse the segments it does not support', () => {
    expect(() => pagePattern('/a/:id?')).toThrow('Unsupported route segment');
    expect(() => pagePattern('/files/*')).toThrow('Unsupported route segment');
  });
});

describe('isPortalPage', () => {
  it('should know every page and nothing else', () => {
    for (const page of Object.values(PORTAL_PAGES)) expect(isPortalPage(page)).toBe(true);
    expect(isPortalPage('/client-dashboard/')).toBe(true);
    expect(isPortalPage('/no/such/page')).toBe(false);
    expect(isPortalPage('/metrics')).toBe(false);
    expect(isPortalPage('/servers/abc/promotion')).toBe(false);
  });
});
