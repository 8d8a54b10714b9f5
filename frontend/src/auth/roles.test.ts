import { isChannelUser, isRole, OperatorLevel, roleFromOperatorLevel } from './roles';

describe('roleFromOperatorLevel', () => {
  it('maps template manager (4) to CREATE_TEMPLATE', () => {
    expect(roleFromOperatorLevel(OperatorLevel.templateManager)).toBe('CREATE_TEMPLATE');
    expect(roleFromOperatorLevel('4')).toBe('CREATE_TEMPLATE');
  });

  it('maps operations manager (3) to TEMPLATE_MANAGER', () => {
    expect(roleFromOperatorLevel(3)).toBe('TEMPLATE_MANAGER');
  });

  it.each([0, 1, 2, 5, 6, 7, 8, 9, -1, null, undefined, 'x'])('maps %p to CREATE_VIDEO', (level) => {
    expect(roleFromOperatorLevel(level as number)).toBe('CREATE_VIDEO');
  });
});

describe('isChannelUser', () => {
  it('is true for distributor and sub-distributor only', () => {
    expect(isChannelUser(1)).toBe(true);
    expect(isChannelUser('9')).toBe(true);
    expect(isChannelUser(3)).toBe(false);
    expect(isChannelUser(null)).toBe(false);
  });
});

describe('isRole', () => {
  it('accepts known roles only', () => {
    expect(isRole('TEMPLATE_MANAGER')).toBe(true);
    expect(isRole('ADMIN')).toBe(false);
    expect(isRole(4)).toBe(false);
  });
});
