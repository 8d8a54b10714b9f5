const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Returns a byte count as people read it: 1 KB is 1024 bytes, one decimal below 100 ("1.2 GB", "5 GB", "37 KB"). */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = unit === 0 || value >= 100 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
  return `${text} ${UNITS[unit]}`;
}
