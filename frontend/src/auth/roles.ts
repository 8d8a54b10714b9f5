/** Roles a user can hold (spec platform §6). */
export const ROLES = ['CREATE_TEMPLATE', 'CREATE_VIDEO', 'TEMPLATE_MANAGER', 'SERVICE_PROVIDER'] as const;
export type Role = (typeof ROLES)[number];

/** Numeric operator levels (spec platform §6); 5 is not assigned. */
export const OperatorLevel = {
  admin: 0,
  distributor: 1,
  enterpriseAdmin: 2,
  operationsManager: 3,
  templateManager: 4,
  vendor: 6,
  merchantProducer: 7,
  operation: 8,
  subDistributor: 9,
} as const;

/**
 * Returns the role derived from an operator level: template manager becomes
 * CREATE_TEMPLATE, operations manager becomes TEMPLATE_MANAGER, anything else CREATE_VIDEO.
 */
export function roleFromOperatorLevel(level: number | string | null | undefined): Role {
  const n = typeof level === 'string' ? Number(level) : level;
  if (n === OperatorLevel.templateManager) return 'CREATE_TEMPLATE';
  if (n === OperatorLevel.operationsManager) return 'TEMPLATE_MANAGER';
  return 'CREATE_VIDEO';
}

/** Returns true for channel users: role id distributor or sub-distributor. */
export function isChannelUser(roleId: number | string | null | undefined): boolean {
  const n = typeof roleId === 'string' ? Number(roleId) : roleId;
  return n === OperatorLevel.distributor || n === OperatorLevel.subDistributor;
}

/** Returns true when the value names a known role. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
