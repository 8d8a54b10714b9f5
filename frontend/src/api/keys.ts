/** Query keys, one factory per server noun; mutations invalidate by these. */
export const queryKeys = {
  system: { info: ['system', 'info'] as const },
  catalogue: {
    offer: (catalogue: string) => ['catalogue', 'offer', catalogue] as const,
  },
  category: {
    taskVideo: ['category', 'taskvideo'] as const,
    tree: (dimension: string) => ['category', 'taskvideo', dimension] as const,
  },
  maintain: {
    materials: {
      all: ['maintain', 'materials'] as const,
      list: (filter: object) => ['maintain', 'materials', filter] as const,
    },
  },
  manageUsers: {
    all: ['manage', 'users'] as const,
    list: (keyword: string, pageNum: number, pageSize: number) => ['manage', 'users', { keyword, pageNum, pageSize }] as const,
  },
  material: {
    all: ['material'] as const,
    lists: ['material', 'list'] as const,
    list: (filter: object) => ['material', 'list', filter] as const,
    info: (id: string) => ['material', 'info', id] as const,
    state: (id: string) => ['material', 'state', id] as const,
    quota: ['material', 'quota'] as const,
  },
  favourite: {
    all: ['favourite'] as const,
    list: (type: string) => ['favourite', 'list', type] as const,
  },
  videoTask: {
    mine: {
      all: ['videotask', 'mine'] as const,
      page: (pageNum: number, pageSize: number, name = '') => ['videotask', 'mine', { pageNum, pageSize, name }] as const,
    },
    one: (taskId: number) => ['videotask', 'ofone', taskId] as const,
    state: (taskId: number) => ['videotask', 'state', taskId] as const,
    mediaTicket: (taskId: number) => ['videotask', 'mediaTicket', taskId] as const,
  },
  template: {
    all: ['template'] as const,
    list: (filter: object) => ['template', 'list', filter] as const,
    one: (id: number) => ['template', 'one', id] as const,
    slots: (id: number) => ['template', 'slots', id] as const,
    mine: (pageNum: number, pageSize: number) => ['template', 'mine', { pageNum, pageSize }] as const,
    check: (filter: object) => ['template', 'check', filter] as const,
    checkOne: (id: number) => ['template', 'checkOne', id] as const,
  },
  oneClick: {
    templates: (categoryId: number, timeLength: number) => ['oneClick', 'templates', { categoryId, timeLength }] as const,
  },
  toolbox: {
    all: ['toolbox'] as const,
    types: ['toolbox', 'types'] as const,
    mine: {
      all: ['toolbox', 'mine'] as const,
      page: (filter: object) => ['toolbox', 'mine', filter] as const,
    },
    run: (id: number) => ['toolbox', 'run', id] as const,
  },
  collection: {
    all: ['collection'] as const,
    managed: (kind: string) => ['collection', 'managed', kind] as const,
    managedOne: (id: number) => ['collection', 'managedOne', id] as const,
    published: (kind: string) => ['collection', 'published', kind] as const,
    publishedOne: (id: number) => ['collection', 'publishedOne', id] as const,
  },
  user: {
    me: (userId: string) => ['user', 'me', userId] as const,
  },
  market: {
    all: ['market'] as const,
    services: (kind: string) => ['market', 'services', kind] as const,
    one: (id: number) => ['market', 'service', id] as const,
    mine: ['market', 'mine'] as const,
  },
  enterprise: {
    all: ['enterprise'] as const,
    space: ['enterprise', 'space'] as const,
    list: ['enterprise', 'list'] as const,
  },
  contest: {
    all: ['contest'] as const,
    list: ['contest', 'list'] as const,
    one: (id: number) => ['contest', 'one', id] as const,
  },
  ring: {
    profile: ['ring', 'profile'] as const,
    precheck: (doc: object) => ['ring', 'precheck', doc] as const,
    check: (taskId: number, fixId: number | null = null) => ['ring', 'check', taskId, fixId] as const,
    orders: {
      all: ['ring', 'orders'] as const,
      mine: (filter: object) => ['ring', 'orders', 'mine', filter] as const,
      tenant: (filter: object) => ['ring', 'orders', 'tenant', filter] as const,
    },
  },
};
