import { pathOfHash, rootWithLogin, safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it.each([
    ['/my-works', '/my-works'],
    ['/workbench/my-task?page=2', '/workbench/my-task?page=2'],
    [null, '/'],
    ['', '/'],
    ['https://evil.example/', '/'],
    ['//evil.example/', '/'],
    ['/\\evil.example', '/'],
    ['/login', '/'],
    ['/login?redirect=/x', '/'],
    ['/?login=1', '/'],
  ])('%p → %p', (value, expected) => {
    expect(safeRedirect(value)).toBe(expected);
  });
});

describe('rootWithLogin', () => {
  it('opens the modal and keeps an in-app target only', () => {
    expect(rootWithLogin('/my-works')).toBe('/?login=1&redirect=%2Fmy-works');
    expect(rootWithLogin('/')).toBe('/?login=1');
    expect(rootWithLogin('//evil')).toBe('/?login=1');
    expect(rootWithLogin(undefined)).toBe('/?login=1');
  });
});

describe('pathOfHash', () => {
  it('reads the route from a hash', () => {
    expect(pathOfHash('#/a?b=1')).toBe('/a?b=1');
    expect(pathOfHash('')).toBe('/');
    expect(pathOfHash('#')).toBe('/');
  });
});
