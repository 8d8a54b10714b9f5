/** Query keys, one factory per server noun; mutations invalidate by these. */
export const queryKeys = {
  system: { info: ['system', 'info'] as const },
  category: { taskVideo: ['category', 'taskvideo'] as const },
};
